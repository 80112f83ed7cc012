"""Table-driven specification tests, one module per SPEC area (the ids are defined in docs/requirements.md)."""
