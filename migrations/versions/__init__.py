"""One module per schema revision, in order (`down_revision`); never edit one that has shipped."""
