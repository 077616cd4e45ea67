pub mod seats;
