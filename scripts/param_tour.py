"""Follow one parameter through the calls that pass it on, and count returns to left modules.

    python scripts/param_tour.py harness.trial._run:run_trial rig.profile [--leaves] [--show]

A static (``ast``) walk: starting at a function, every call in its body (in source order,
nested functions included) that passes the followed value on is followed into the project
function it reaches, and so on. The walk writes down the module it is in each time that
changes (entering a callee, coming back to the caller); a *re-entry* is coming into a module
the walk had already left. The number of re-entries says how far a value has to travel back
and forth between modules for one job.

A value is passed on when an argument (or the receiver of a method call) is

- the followed value or a part of it (``profile``, ``profile.staff``, ``sc`` after
  ``sc = profile.customer_screen``), or
- an object that holds it (``ctx`` when ``ctx.profile`` is followed, ``self`` in a class that
  stored it as ``self.profile``).

A parameter annotated with plain data types only (``str``, ``list[str] | None``, ``Path``…)
receives a value read from the followed one, not the value: it is followed only with
``--leaves``.

The followed value may be dotted (``ctx.profile``: follow the profile inside a context).
Calls are resolved through the module's own definitions and its imports of project modules;
``obj.method()`` through the annotation or the constructor call that gave ``obj`` its class
(``self.method()`` in the class itself). What cannot be resolved is not followed.
"""

from __future__ import annotations

import argparse
import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
"""The project the walk reads (``--root`` reads another checkout)."""


# ---------------------------------------------------------------------------- modules


@dataclass
class Module:
    """One parsed project module: its definitions and what its imported names refer to."""

    name: str
    tree: ast.Module
    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    classes: dict[str, ast.ClassDef] = field(default_factory=dict)
    imports: dict[str, tuple[str, str | None]] = field(default_factory=dict)
    """Local name -> (module, attribute or None for the module itself)."""


class Project:
    """The project's modules, parsed on demand."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._modules: dict[str, Module | None] = {}

    def module(self, name: str) -> Module | None:
        if name not in self._modules:
            self._modules[name] = self._load(name)
        return self._modules[name]

    def _load(self, name: str) -> Module | None:
        base = self.root.joinpath(*name.split("."))
        path = base / "__init__.py" if base.is_dir() else base.with_suffix(".py")
        if not path.is_file():
            return None
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        mod = Module(name, tree)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in tree.body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                mod.functions[node.name] = node
            elif isinstance(node, ast.ClassDef):
                mod.classes[node.name] = node
            elif isinstance(node, ast.ImportFrom):
                source = _absolute(package, node.module, node.level)
                for alias in node.names:
                    mod.imports[alias.asname or alias.name] = (source, alias.name)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    local = alias.asname or alias.name.split(".")[0]
                    mod.imports[local] = (alias.asname and alias.name or local, None)
        return mod

    def lookup(self, module: str, name: str, depth: int = 0) -> tuple[str, ast.AST] | None:
        """The definition ``name`` means in ``module`` (following re-exports), or None."""
        mod = self.module(module)
        if mod is None or depth > 10:
            return None
        if name in mod.functions:
            return module, mod.functions[name]
        if name in mod.classes:
            return module, mod.classes[name]
        if name in mod.imports:
            source, attr = mod.imports[name]
            if attr is None:
                return None
            found = self.lookup(source, attr, depth + 1)
            if found is None and self.module(f"{source}.{attr}") is not None:
                return None  # a submodule, not a definition
            return found
        return None


def _absolute(package: str, module: str | None, level: int) -> str:
    if level == 0:
        return module or ""
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)]
    return ".".join(base + ([module] if module else []))


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        inner = _dotted(node.value)
        return f"{inner}.{node.attr}" if inner is not None else None
    return None


def _within(path: str, prefix: str) -> bool:
    return path == prefix or path.startswith(prefix + ".")


# ---------------------------------------------------------------------------- the walk


@dataclass
class Frame:
    """One function being walked: where it is, and which paths hold the followed value."""

    module: str
    func: ast.FunctionDef | ast.AsyncFunctionDef
    cls: ast.ClassDef | None
    tracked: set[str]
    types: dict[str, tuple[str, ast.ClassDef]] = field(default_factory=dict)


class Tour:
    """The walk itself; ``sequence`` is the modules in the order the walk was in them."""

    def __init__(self, project: Project, max_depth: int = 40, leaves: bool = False) -> None:
        self.project = project
        self.leaves = leaves
        """Also follow plain-data fields read from the value (a selector list, a path)."""
        self.sequence: list[str] = []
        self.calls: list[str] = []
        self.max_depth = max_depth
        self._stack: list[tuple[int, frozenset[str]]] = []

    def _in(self, module: str) -> None:
        if not self.sequence or self.sequence[-1] != module:
            self.sequence.append(module)

    @property
    def reentries(self) -> int:
        seen: set[str] = set()
        count = 0
        for module in self.sequence:
            if module in seen:
                count += 1
            seen.add(module)
        return count

    def walk(self, module: str, func: ast.FunctionDef | ast.AsyncFunctionDef,
             cls: ast.ClassDef | None, tracked: set[str]) -> None:
        key = (id(func), frozenset(tracked))
        if key in self._stack or len(self._stack) >= self.max_depth or not tracked:
            return
        self._stack.append(key)
        self._in(module)
        frame = Frame(module, func, cls, set(tracked))
        self._annotations(frame)
        if cls is not None:
            frame.types.update(self._self_types(module, cls))
        for node in _in_order(func):
            if isinstance(node, ast.Assign | ast.AnnAssign):
                self._assign(frame, node)
            elif isinstance(node, ast.Call):
                self._call(frame, node)
        self._stack.pop()

    # ------------------------------------------------------------------ names and types
    def _annotations(self, frame: Frame) -> None:
        args = frame.func.args
        for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
            if arg.annotation is not None:
                found = self._class_of(frame.module, arg.annotation)
                if found is not None:
                    frame.types[arg.arg] = found

    def _class_of(self, module: str, annotation: ast.AST) -> tuple[str, ast.ClassDef] | None:
        names = [n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)]
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            names = [p.strip() for p in annotation.value.replace("|", " ").split()]
        for name in names:
            found = self.project.lookup(module, name)
            if found is not None and isinstance(found[1], ast.ClassDef):
                return found[0], found[1]
        return None

    def _self_types(self, module: str, cls: ast.ClassDef) -> dict[str, tuple[str, ast.ClassDef]]:
        """``self.x`` -> class, from constructor calls assigned in the class's methods."""
        types: dict[str, tuple[str, ast.ClassDef]] = {}
        for node in ast.walk(cls):
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
                found = self._callee_class(module, node.value.func)
                for target in node.targets:
                    path = _dotted(target)
                    if found is not None and path and path.startswith("self."):
                        types[path] = found
        return types

    def _callee_class(self, module: str, func: ast.AST) -> tuple[str, ast.ClassDef] | None:
        if isinstance(func, ast.Name):
            found = self.project.lookup(module, func.id)
            if found is not None and isinstance(found[1], ast.ClassDef):
                return found[0], found[1]
        return None

    def _holds(self, frame: Frame, expr: ast.AST) -> set[str]:
        """The followed paths ``expr`` passes on, relative to it ('' for all of it)."""
        if isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute):
            # what a method of the value (or of a part of it) gives is a part of it
            owner = _dotted(expr.func.value)
            if owner is not None and any(_within(owner, t) for t in frame.tracked):
                return {""}
        path = _dotted(expr)
        if path is None:
            if isinstance(expr, ast.Starred):
                return self._holds(frame, expr.value)
            return set()
        out = set()
        for tracked in frame.tracked:
            if _within(path, tracked):
                out.add("")  # the value itself or a part of it
            elif _within(tracked, path):
                out.add(tracked[len(path) + 1:])  # an object holding it
        return out

    def _assign(self, frame: Frame, node: ast.Assign | ast.AnnAssign) -> None:
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        value = node.value
        if value is None:
            return
        pairs: list[tuple[ast.AST, ast.AST]] = []
        for target in targets:
            if isinstance(target, ast.Tuple) and isinstance(value, ast.Tuple):
                pairs += list(zip(target.elts, value.elts, strict=False))
            else:
                pairs.append((target, value))
        for target, val in pairs:
            name = _dotted(target)
            if name is None:
                continue
            held = self._holds(frame, val)
            frame.tracked |= {f"{name}.{h}" if h else name for h in held}
            if isinstance(val, ast.Call):
                found = self._callee_class(frame.module, val.func)
                if found is not None:
                    frame.types[name] = found
                    frame.tracked |= {f"{name}.{p[5:]}"
                                      for p in self._built_with(frame, val, *found)}

    # ------------------------------------------------------------------ calls
    def _call(self, frame: Frame, call: ast.Call) -> None:
        target = self._resolve(frame, call.func)
        if target is None:
            return
        module, node, cls, bound = target
        if isinstance(node, ast.ClassDef):
            init = _method(node, "__init__")
            if init is None:
                return
            cls, node, bound = node, init, True
        assert isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        params = [a.arg for a in [*node.args.posonlyargs, *node.args.args]]
        if bound and params:
            params.pop(0)  # the receiver: calling a method passes nothing on
        tracked = self._bind(frame, call, node, params)
        if not tracked:
            return
        if cls is not None and bound:
            tracked |= self._self_paths(module, cls, node, tracked)
        self.calls.append(f"{frame.module}.{frame.func.name} -> {module}.{node.name}")
        self.walk(module, node, cls, tracked)
        self._in(frame.module)

    def _built_with(self, frame: Frame, call: ast.Call, module: str,
                    cls: ast.ClassDef) -> set[str]:
        """The ``self.…`` paths holding the followed value in an object built by ``call``."""
        init = _method(cls, "__init__")
        if init is None:
            fields = _dataclass_fields(cls)
            out: set[str] = set()
            bound = list(zip(fields, call.args, strict=False))
            bound += [(kw.arg, kw.value) for kw in call.keywords if kw.arg in fields]
            for name, arg in bound:
                out |= {f"self.{name}.{h}" if h else f"self.{name}"
                        for h in self._holds(frame, arg)}
            return out
        params = [a.arg for a in [*init.args.posonlyargs, *init.args.args]][1:]
        given = self._bind(frame, call, init, params)
        return self._self_paths(module, cls, init, given) if given else set()

    def _bind(self, frame: Frame, call: ast.Call, func: ast.FunctionDef | ast.AsyncFunctionDef,
              params: list[str]) -> set[str]:
        """The callee's paths that receive the followed value from ``call``'s arguments.
        A parameter annotated with a plain data type (``str``, ``list[str]``, …) receives a
        field's value, not the profile or a section of it: it is not followed."""
        leaf = {a.arg for a in [*func.args.posonlyargs, *func.args.args, *func.args.kwonlyargs]
                if _plain(a.annotation)}
        bound: list[tuple[str, ast.AST]] = [(params[i], arg) for i, arg in enumerate(call.args)
                                            if i < len(params)]
        bound += [(kw.arg, kw.value) for kw in call.keywords if kw.arg is not None]
        out: set[str] = set()
        for name, arg in bound:
            if self.leaves or name not in leaf:
                out |= {f"{name}.{h}" if h else name for h in self._holds(frame, arg)}
        return out

    def _self_paths(self, module: str, cls: ast.ClassDef, func: ast.AST,
                    tracked: set[str]) -> set[str]:
        """Paths of ``self`` the constructor fills from what it was given (``self.x = x``,
        ``self.side = profile.staff_side()``)."""
        init = _method(cls, "__init__")
        if init is None or init is not func:
            return set()
        frame = Frame(module, init, cls, set(tracked))
        out: set[str] = set()
        for node in _in_order(init):
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                name = _dotted(target)
                held = self._holds(frame, node.value)
                if name and name.startswith("self.") and held:
                    out |= {f"{name}.{h}" if h else name for h in held}
                    frame.tracked |= {f"{name}.{h}" if h else name for h in held}
        return out

    def _resolve(self, frame: Frame, func: ast.AST
                 ) -> tuple[str, ast.AST, ast.ClassDef | None, bool] | None:
        """(module, definition, its class, bound method?) of a call's callee, or None."""
        if isinstance(func, ast.Name):
            found = self.project.lookup(frame.module, func.id)
            if found is None:
                return None
            return found[0], found[1], None, False
        if not isinstance(func, ast.Attribute):
            return None
        owner = _dotted(func.value)
        if owner is None:
            return None
        if owner == "self" and frame.cls is not None:
            method = _method(frame.cls, func.attr)
            return (frame.module, method, frame.cls, True) if method is not None else None
        if owner in frame.types:
            module, cls = frame.types[owner]
            method = _method(cls, func.attr)
            return (module, method, cls, True) if method is not None else None
        mod = self.project.module(frame.module)
        if mod is not None and owner in mod.imports:
            source, attr = mod.imports[owner]
            target = source if attr is None else f"{source}.{attr}"
            found = self.project.lookup(target, func.attr)
            if found is not None:
                return found[0], found[1], None, False
        return None


_PLAIN = {"str", "int", "float", "bool", "bytes", "list", "dict", "tuple", "set", "None",
          "Path"}


def _plain(annotation: ast.AST | None) -> bool:
    """An annotation made of plain data types only (``str``, ``list[str] | None``, …)."""
    if annotation is None:
        return False
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return False
    names = [n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)]
    return bool(names) and all(n in _PLAIN for n in names)


def _dataclass_fields(cls: ast.ClassDef) -> list[str]:
    """The fields of a dataclass, in order (its generated ``__init__`` takes them so)."""
    decorated = any("dataclass" in ast.unparse(d) for d in cls.decorator_list)
    if not decorated:
        return []
    return [n.target.id for n in cls.body
            if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
            and "ClassVar" not in ast.unparse(n.annotation)]


def _method(cls: ast.ClassDef, name: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    for node in cls.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == name:
            return node
    return None


def _in_order(func: ast.AST) -> list[ast.AST]:
    """Assignments and calls of a function body (nested functions included), in source order;
    an assignment comes after the calls on its right-hand side."""
    nodes = [n for n in ast.walk(func) if n is not func
             and isinstance(n, ast.Call | ast.Assign | ast.AnnAssign)]

    def key(n: ast.AST) -> tuple[int, int, int]:
        end = isinstance(n, ast.Assign | ast.AnnAssign)
        line = getattr(n, "end_lineno", 0) if end else getattr(n, "lineno", 0)
        col = getattr(n, "end_col_offset", 0) if end else getattr(n, "col_offset", 0)
        return line, col, int(end)

    return sorted(nodes, key=key)


def tour(start: str, param: str, root: Path = ROOT, leaves: bool = False) -> Tour:
    """Walk ``param`` from ``start`` (``package.module:function`` or ``…:Class.method``)."""
    module, _, qualname = start.partition(":")
    project = Project(root)
    mod = project.module(module)
    if mod is None:
        raise SystemExit(f"no module {module}")
    cls = None
    if "." in qualname:
        cls_name, _, name = qualname.partition(".")
        cls = mod.classes[cls_name]
        func = _method(cls, name)
    else:
        func = mod.functions.get(qualname)
    if func is None:
        raise SystemExit(f"no function {start}")
    t = Tour(project, leaves=leaves)
    t.walk(module, func, cls, {param})
    return t


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("start", help="module:function, e.g. harness.trial._run:run_trial")
    parser.add_argument("param", help="the parameter to follow, e.g. profile or ctx.profile")
    parser.add_argument("--leaves", action="store_true",
                        help="also follow plain-data fields (str, list[str], …) read from it")
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the project folder (default: this checkout)")
    parser.add_argument("--show", action="store_true", help="print the calls and modules")
    args = parser.parse_args(argv)
    t = tour(args.start, args.param, root=args.root, leaves=args.leaves)
    if args.show:
        print("calls:")
        for c in t.calls:
            print("  " + c)
        print("modules: " + " > ".join(t.sequence))
    print(f"{args.start} {args.param}: {len(t.calls)} calls, {len(set(t.sequence))} modules, "
          f"{t.reentries} returns to modules already left")
    return 0


if __name__ == "__main__":
    sys.exit(main())
