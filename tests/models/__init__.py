"""End-to-end model checks and model specs."""
