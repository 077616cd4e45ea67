pub mod seats;
pub mod table_check;
