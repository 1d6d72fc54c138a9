//! Converter tests.
