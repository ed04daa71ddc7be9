"""Pipeline stages, one sub-package per step of the data flow (parse > lexical > extract > ...)."""
