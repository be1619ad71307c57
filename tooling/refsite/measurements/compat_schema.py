"""The JSON Schemas (draft 2020-12) of the published compat data, ``compat/v1/``: one for
``index.json``, one for each area's file. Written beside the data as
``compat/v1/schema/index.schema.json`` and ``compat/v1/schema/area.schema.json`` by
``refsite.measurements.compat_export``, whose docstring describes the files.

They use these keywords only: ``$schema``, ``$id``, ``$defs``, ``$ref`` (within the same file),
``title``, ``description``, ``type``, ``const``, ``enum``, ``pattern``, ``properties``,
``required``, ``additionalProperties``, ``propertyNames``, ``items`` and ``oneOf``.
"""

from __future__ import annotations

DRAFT = "https://json-schema.org/draft/2020-12/schema"
#: ``2.4.1``: a torch release as pip names it, without a local tag.
RELEASE_PATTERN = r"^[0-9]+\.[0-9]+\.[0-9]+$"
_TEXT = {"type": "string"}
_RELEASE = {"type": "string", "pattern": RELEASE_PATTERN}
_FORMAT = {"const": 1, "description": "The version of this layout; a change that breaks a reader "
                                      "gets a new number and a new folder (compat/v2/)."}


def _object(description: str, properties: dict, required: list[str] | None = None) -> dict:
    return {"type": "object", "description": description, "properties": properties,
            "required": list(properties) if required is None else required, "additionalProperties": False}


INDEX = {
    "$schema": DRAFT,
    "$id": "index.schema.json",
    "title": "Compat data index",
    **_object("The releases measured, the pinned release, the examples and where their results are.", {
        "format": _FORMAT,
        "pinned": {**_RELEASE, "description": "The release the records were made with: every example prints "
                                              "its record on it (the test suite checks that)."},
        "pinned_build": {"type": "string", "description": "Its build, as torch.__version__ says (2.15.0+cu132)."},
        "releases": {"type": "array", "description": "Every release measured, oldest first.",
                     "items": {"$ref": "#/$defs/release"}},
        "areas": {"type": "array", "description": "The areas, each with its file (relative to this one).",
                  "items": _object("One area.", {"area": _TEXT, "file": _TEXT})},
        "examples": {"type": "array", "description": "Every example that has CPU variants, by path.",
                     "items": {"$ref": "#/$defs/example"}},
    }),
    "$defs": {
        "release": _object("One measured release and how it was measured.", {
            "torch": _RELEASE,
            "torch_build": {"type": ["string", "null"], "description": "torch.__version__ once installed; "
                                                                       "null when it could not be installed."},
            "python": _TEXT,
            "date": {"type": "string", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"},
            "machine": _TEXT,
            "installed": {"type": "boolean", "description": "false: no results for this release; see install_error."},
            "install_error": {"type": "string", "description": "pip's last lines when it could not be installed."},
            "requirements": {"type": "array", "items": {"type": "string", "pattern": "^[A-Za-z0-9_.-]+==[^=]+$"},
                             "description": "What the environment got besides torch, as name==version pins; "
                                            "absent where the measurement predates recording them."},
        }, required=["torch", "torch_build", "python", "date", "machine", "installed"]),
        "example": _object("One example (a snippet file).", {
            "snippet": {"type": "string", "description": "Its path under snippets/: area/name.py."},
            "area": _TEXT,
            "title": {"type": "string", "description": "The first line of its docstring (English)."},
            "variants": {"type": "array", "description": "Its CPU variants (cpu, gloo-cpu-2, ...).",
                         "items": _TEXT},
            "file": {"type": "string", "description": "The area file that holds its results."},
        }),
    },
}

AREA = {
    "$schema": DRAFT,
    "$id": "area.schema.json",
    "title": "Compat results of one area",
    **_object("Every CPU variant of the area's examples, and its result on each release.", {
        "format": _FORMAT,
        "area": _TEXT,
        "releases": {"type": "array", "description": "The releases the results name, oldest first: the "
                                                     "installed ones measured and the pinned one.",
                     "items": _RELEASE},
        "variants": {"type": "array", "items": {"$ref": "#/$defs/variant"}},
    }),
    "$defs": {
        "variant": _object("One variant of one example.", {
            "key": {"type": "string", "description": "area/name.py [variant], as the measurement files name it."},
            "snippet": _TEXT,
            "variant": _TEXT,
            "record_torch": {"type": "string", "description": "The torch build its record was made with."},
            "results": {"type": "object", "description": "Release -> its result on that release.",
                        "propertyNames": _RELEASE, "additionalProperties": {"$ref": "#/$defs/outcome"}},
        }),
        "repeated": _object(
            "Optional: the result varied from run to run on this release, so it was run several times alone; "
            "the result above is a run of the most frequent kind. A result without it is one run.", {
                "runs": {"type": "integer", "description": "How many runs."},
                "counts": {"type": "object", "description": "Runs of each kind (at least two kinds); hangs: "
                                                            "a failure stopped at its time limit.",
                           "propertyNames": {"enum": ["same", "differs", "fails", "hangs"]},
                           "additionalProperties": {"type": "integer"}},
            }),
        "outcome": {"oneOf": [
            _object("It printed what its record holds (on the pinned release: the record itself).",
                    {"result": {"const": "same"}, "repeated": {"$ref": "#/$defs/repeated"}}, required=["result"]),
            _object("It ran clean but printed something else; diff: the unified diff, per rank.",
                    {"result": {"const": "differs"}, "diff": {"type": "array", "items": _TEXT},
                     "repeated": {"$ref": "#/$defs/repeated"}}, required=["result", "diff"]),
            _object("It exited non-zero, timed out or wrote to stderr: the exception type and the first "
                    "line of its message (paths of the measuring machine replaced by placeholders).",
                    {"result": {"const": "fails"}, "error_type": _TEXT, "error": _TEXT,
                     "repeated": {"$ref": "#/$defs/repeated"}}, required=["result", "error_type", "error"]),
            _object("No current result: that release was measured, but on another version of the "
                    "example's code or record.", {"result": {"const": "unmeasured"}}),
        ]},
    },
}

#: The schema files, by their path under ``compat/v1/``.
FILES = {"schema/index.schema.json": INDEX, "schema/area.schema.json": AREA}
