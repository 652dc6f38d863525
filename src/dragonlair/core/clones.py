"""How a state is cloned, derived from its class's declared fields: each field in
``__slots__`` with its type annotation. A list is copied (a list that may be None is
copied when it is one), everything else (ints, strings, tuples, the game, the chains of
actions and events) is shared; a dict or set field is refused, since sharing it would tie
a clone to its original and copying it is not what the hot path should pay for.

The rule is written once, here, and used twice: in pure Python ``core.state`` derives
each state class's ``clone`` from the class itself when the class is made
(:func:`derive_clone`), and the
compiled build (``setup.py``) generates the same clones' source from the games' source
files, so that they are compiled with the classes they copy. This module uses only the
standard library, so that the build can load it from its path without the package's
dependencies.
"""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Callable, Sequence
from typing import Any

# The fields of State itself that hold a list (None outside a sealed choice); every other
# field of the core is shared.
BASE_LISTS = ("_choices",)

# A field whose kind is not known when the clone is derived (see core.state): copied if
# it holds a list when cloned, shared otherwise.
UNKNOWN = "unknown"


def field_lines(owner: str, name: str, annotation: str) -> list[str]:
    """The clone's lines that copy or share the field ``name`` of ``self`` into ``n``."""
    if annotation == UNKNOWN:
        return [f"    c = self.{name}", f"    n.{name} = c.copy() if c.__class__ is list else c"]
    flat = annotation.replace(" ", "")
    kind = flat.split("[", 1)[0]
    if kind in ("dict", "set", "Mapping"):
        raise TypeError(
            f"{owner}.{name} is a {kind}: state fields are ints, strings, "
            "tuples and lists, so that clones can share or copy them"
        )
    if kind == "list" and ("|None" in flat or name in BASE_LISTS):
        return [f"    c = self.{name}", f"    n.{name} = None if c is None else c.copy()"]
    if kind == "list":
        return [f"    n.{name} = self.{name}.copy()"]
    return [f"    n.{name} = self.{name}"]


def base_annotation(name: str) -> str:
    """How the clone treats a field of State itself."""
    return "list[Any] | None" if name in BASE_LISTS else "object"


def clone_body(owner: str, fields: Sequence[tuple[str, str]]) -> list[str]:
    """The lines of a clone of ``owner`` after ``n``, the new state, is made: one or two
    per ``(name, annotation)`` field, then ``return n``."""
    lines: list[str] = []
    for name, annotation in fields:
        lines += field_lines(owner, name, annotation)
    lines.append("    return n")
    return lines


# ---------------------------------------------------------------------- from the source


def state_classes(source: str) -> list[str]:
    """The names of the classes in a module's ``source`` that extend ``State`` directly
    (``class XState(State["X"])``)."""
    found = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef):
            for base in node.bases:
                target = base.value if isinstance(base, ast.Subscript) else base
                if isinstance(target, ast.Name) and target.id == "State":
                    found.append(node.name)
    return found


def declared_fields(source: str, class_name: str) -> list[tuple[str, str]]:
    """The ``(name, annotation)`` of each field in the ``__slots__`` of ``class_name`` in
    a module's ``source``, in their order there; the annotation is the class body's own,
    as its source writes it."""
    for node in ast.parse(source).body:
        if isinstance(node, ast.ClassDef) and node.name == class_name:
            break
    else:
        raise ValueError(f"no class {class_name} in the source")
    slots: list[str] | None = None
    annotations: dict[str, str] = {}
    for item in node.body:
        if isinstance(item, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in item.targets
        ):
            value = ast.literal_eval(item.value)
            slots = [value] if isinstance(value, str) else list(value)
        elif isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
            annotations[item.target.id] = ast.unparse(item.annotation)
    if slots is None:
        raise ValueError(f"{class_name} declares no __slots__")
    missing = [name for name in slots if name not in annotations]
    if missing:
        raise TypeError(f"{class_name}.{missing[0]} is in __slots__ without a type")
    return [(name, annotations[name]) for name in slots]


def compiled_clones(base: Sequence[str], classes: Sequence[tuple[str, str, str]]) -> str:
    """The source of the module of clones the compiled build compiles: for each
    ``(module, class name, module source)``, a typed function that clones exactly that
    class (the fields of State, ``base``, then the class's own), and ``CLONES``, which
    maps each class to its function (``State.clone`` looks it up)."""
    head = [
        '"""The clones of the compiled state classes, generated by setup.py from their',
        'declarations (core/clones.py) when the compiled build is made."""',
        "",
        "from __future__ import annotations",
        "",
        "from collections.abc import Callable",
        "from typing import Any",
        "",
    ]
    body: list[str] = []
    table: list[str] = []
    for module, name, source in classes:
        head.append(f"from {module} import {name}")
        fields = [(f, base_annotation(f)) for f in base]
        fields += [f for f in declared_fields(source, name) if f[0] not in base]
        body += ["", "", f"def clone_{name}(self: {name}) -> {name}:", f"    n = {name}()"]
        body += clone_body(name, fields)
        table.append(f"    {name}: clone_{name},")
    lines = [*head, *body, "", "", "CLONES: dict[type, Callable[[Any], Any]] = {", *table, "}"]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- deriving a clone
# (in pure Python, from the class itself: core.state's State.__init_subclass__)


def compiled(klass: type) -> bool:
    """Whether ``klass`` was compiled with mypyc (the compiled build)."""
    return "__mypyc_attrs__" in klass.__dict__


def is_compiled(cls: type, base: type) -> bool:
    """Whether ``cls`` or a game's state class it extends (below ``base``, the core's
    ``State``) was compiled with mypyc."""
    return any(compiled(k) for k in cls.__mro__ if k is not base)


def own_fields(klass: type, inherited: Sequence[str]) -> list[str]:
    """The fields ``klass`` adds to those of its bases: its ``__slots__`` in pure Python.
    A compiled class keeps no ``__slots__`` but lists every attribute in
    ``__mypyc_attrs__``; its own ones are taken in sorted order, which is the order of
    the ``__slots__`` it was compiled from (ruff keeps every ``__slots__`` sorted), so
    that both builds write the same JSON."""
    slots = klass.__dict__.get("__slots__")
    if slots is not None:
        return [name for name in slots if name not in inherited]
    attrs = klass.__dict__.get("__mypyc_attrs__", ())
    return sorted(a for a in attrs if not a.startswith("__") and a not in inherited)


def annotations_of(cls: type) -> dict[str, str]:
    found: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        for name, ann in inspect.get_annotations(klass).items():
            found[name] = ann if isinstance(ann, str) else getattr(ann, "__name__", repr(ann))
    return found


def derive_clone(cls: type, base: type, sample: object = None) -> Callable[[Any], Any]:
    """The ``clone`` of ``cls``, generated once from its declared fields by the rule of
    :mod:`dragonlair.core.clones`: a straight-line function that copies every list field
    and shares every other one.

    A class compiled with mypyc keeps no annotations; the compiled build compiles its
    clone from the source (``setup.py``), and only an interpreted subclass of a compiled
    class comes here with ``sample``, the first state cloned, whose values give the kinds
    of the compiled fields (a field that is None there is copied if it holds a list when
    cloned). ``base`` is the core's ``State``, whose own fields take the kinds of
    :func:`base_annotation`."""
    annotations = annotations_of(cls)
    lines = ["def clone(self):", "    n = new(self.__class__)"]
    fields: list[tuple[str, str]] = []
    names: list[str] = []
    for klass in reversed(cls.__mro__):
        for name in own_fields(klass, names):
            names.append(name)
            ann = annotations.get(name)
            if klass is base:
                ann = base_annotation(name)
            elif ann is None and sample is not None and compiled(klass):
                ann = kind_of(getattr(sample, name))
            if ann is None:
                raise TypeError(f"{cls.__name__}.{name} is in __slots__ without a type")
            fields.append((name, ann))
    lines += clone_body(cls.__name__, fields)
    namespace: dict[str, Any] = {"new": cls.__new__}
    exec("\n".join(lines), namespace)
    clone: Callable[[Any], Any] = namespace["clone"]
    clone.__qualname__ = f"{cls.__qualname__}.clone"
    clone.__doc__ = base.clone.__doc__  # type: ignore[attr-defined]
    return clone


def kind_of(value: object) -> str:
    """A compiled field's kind, from its value in a state (see :func:`derive_clone`)."""
    if value is None:
        return UNKNOWN
    return "list[Any] | None" if isinstance(value, list) else type(value).__name__


# The clones of state classes compiled with mypyc, found on first use (State.clone), and
# the module of those the build compiled (generated by setup.py, only in that build).
COMPILED_CLONES: dict[type, Callable[[Any], Any]] = {}
CLONES_MODULE = "dragonlair._clones"


def clone_of_compiled(state: object, base: type) -> Callable[[Any], Any]:
    """The clone of a compiled state's class: the one the build compiled for it, or for
    an interpreted subclass of a compiled class (which the build did not see), one
    derived from its fields (see ``clones.derive_clone``)."""
    cls = state.__class__
    if cls is base:
        raise NotImplementedError(f"clone() is derived for subclasses of {base.__name__}")
    built: dict[type, Callable[[Any], Any]] = importlib.import_module(CLONES_MODULE).CLONES
    derived = built.get(cls)
    if derived is None:
        derived = derive_clone(cls, base, state)
    COMPILED_CLONES[cls] = derived
    return derived
