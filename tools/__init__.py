"""Command-line tools (`mirage-opt`, `mirage-run`) and the registries they share."""
