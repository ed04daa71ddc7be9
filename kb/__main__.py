"""`python -m kb` runs the CLI."""

from kb.cli import main

main()
