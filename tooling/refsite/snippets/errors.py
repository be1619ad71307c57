"""The one error of the snippet file contract: a header or a record is missing or malformed."""


class SpecError(ValueError):
    """A snippet's header, or one of its expected-output files, is missing or malformed; the
    message names the file and the fix."""
