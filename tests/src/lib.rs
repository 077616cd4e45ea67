//! Acceptance tests for Forgotten Depths live in `tests/`; this library holds shared helpers.
