"""The package's shape (issue 39, deliverables 6 and 10): no module over 600
lines, and the kept fold holds its state in its object, not in module globals."""

from __future__ import annotations

import ast
import importlib
import inspect
from collections.abc import Iterator
from pathlib import Path

import daimon_tui

PACKAGE = Path(daimon_tui.__file__).parent
MAX_LINES = 600
# What a module-level value may not be: a container or a lock, context
# variable or thread that some function would then change.
_MUTABLE_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Lock", "RLock", "ContextVar",
                  "Thread", "Event"}


def _lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_600_lines() -> None:
    sizes = {path.relative_to(PACKAGE).as_posix(): _lines(path) for path in PACKAGE.rglob("*.py")}
    assert {rel: n for rel, n in sizes.items() if n > MAX_LINES} == {}


def _mutable_module_state(tree: ast.Module) -> list[str]:
    """Module-level names that hold state a function changes: any `global`
    statement, a name bound twice at module level, or a value that is a
    container or a lock, context variable or thread."""
    found = [f"global {', '.join(node.names)}" for node in ast.walk(tree) if isinstance(node, ast.Global)]
    bound: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        else:
            continue
        for target in targets:
            for name in (n.id for n in ast.walk(target) if isinstance(n, ast.Name)):
                bound[name] = bound.get(name, 0) + 1
                mutable = isinstance(value, ast.List | ast.Dict | ast.Set | ast.ListComp | ast.DictComp | ast.SetComp)
                if isinstance(value, ast.Call):
                    func = value.func
                    called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
                    mutable = called in _MUTABLE_CALLS
                if mutable:
                    found.append(f"{name} = {ast.unparse(value)[:40]}")
    found += [f"{name} bound {times} times" for name, times in bound.items() if times > 1]
    return found


def test_the_kept_fold_keeps_no_state_in_module_globals() -> None:
    modules = sorted((PACKAGE / "store" / "judging").glob("kept_fold*.py"))
    assert len(modules) >= 6  # fold, ledger bytes, persistence, build, check, hooks (and the file format)
    found = {path.name: state for path in modules
             if (state := _mutable_module_state(ast.parse(path.read_text(encoding="utf-8"))))}
    assert found == {}


def test_the_shape_check_sees_module_state() -> None:
    held = ast.parse("import threading\n_held: dict = {}\n_lock = threading.Lock()\n_on = False\n"
                     "def f():\n    global _on\n    _on = True\n")
    assert _mutable_module_state(held) == ["global _on", "_held = {}", "_lock = threading.Lock()"]
    assert _mutable_module_state(ast.parse("KEEP = 3\nPATTERN = re.compile('x')\nKEPT = KeptFold()\n")) == []


def test_no_view_runs_an_event_loop_of_its_own() -> None:
    """A view awaits its services on Textual's loop; `asyncio.run` in `ui/`
    (a service run to its end in a thread) is a second loop the app cannot cancel."""
    found = [path.relative_to(PACKAGE).as_posix() for path in (PACKAGE / "ui").rglob("*.py")
             if "asyncio.run(" in path.read_text(encoding="utf-8")]
    assert found == []


def _ui_classes() -> Iterator[tuple[str, type]]:
    """Each class defined in a module of `ui/`, with its dotted name."""
    for path in sorted((PACKAGE / "ui").rglob("*.py")):
        module = importlib.import_module("daimon_tui." + path.relative_to(PACKAGE).with_suffix("").as_posix()
                                         .replace("/", ".").removesuffix(".__init__"))
        for name, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__:
                yield f"{module.__name__}.{name}", cls


def test_no_invisible_widget_acts_as_a_controller() -> None:
    """A widget draws (issue 39, deliverable 2): one that subclasses Textual's
    bare `Widget` and defines nothing to draw is a controller in disguise."""
    from textual.widget import Widget

    drawless = [name for name, cls in _ui_classes() if Widget in cls.__bases__
                and not any(hook in vars(cls) for hook in ("render", "render_line", "render_lines", "compose"))]
    assert drawless == []


def test_no_screen_takes_keys_from_a_mixin() -> None:
    """A screen's key actions are its own methods, each handing the work to a
    controller it owns (issue 39, deliverable 2): no base class brings key
    handlers in. A screen's bases are Textual's classes, another screen, or
    the navigation's `GoesBack` (Esc asks the navigator)."""
    from textual.screen import Screen

    from daimon_tui.ui.navigation import GoesBack

    mixed = [f"{name}({base.__name__})" for name, cls in _ui_classes() if issubclass(cls, Screen)
             for base in cls.__bases__
             if not (base is GoesBack or base.__module__.startswith("textual.") or issubclass(base, Screen))]
    assert mixed == []


# One value-type system (docs/architecture.md, "The model"): a value is a frozen, slotted dataclass; a mutable
# holder is a slotted dataclass that says why it is mutable; no NamedTuple.
_MUTABLE_WHY = "mutable because"


def _is_dataclass_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    return (isinstance(target, ast.Name) and target.id == "dataclass") or (
        isinstance(target, ast.Attribute) and target.attr == "dataclass")


def _flag(decorator: ast.expr, name: str) -> bool:
    return isinstance(decorator, ast.Call) and any(
        k.arg == name and isinstance(k.value, ast.Constant) and k.value.value is True for k in decorator.keywords)


def _comment_above(lines: list[str], lineno: int) -> str:
    """The comment lines right above line `lineno` (1-based), joined."""
    found: list[str] = []
    at = lineno - 2
    while at >= 0 and lines[at].strip().startswith("#"):
        found.insert(0, lines[at].strip())
        at -= 1
    return " ".join(found)


def _value_type_faults(source: str) -> list[str]:
    """Each class in `source` that breaks the rule: a NamedTuple (or a
    `namedtuple(...)`), a dataclass without `slots=True`, and a dataclass not
    frozen without a `# mutable because ...` comment right above it."""
    lines = source.splitlines()
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call):
            func = node.func
            if (func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")) == "namedtuple":
                found.append((node.lineno, "namedtuple()"))
        if not isinstance(node, ast.ClassDef):
            continue
        bases = {base.id if isinstance(base, ast.Name) else getattr(base, "attr", "") for base in node.bases}
        if "NamedTuple" in bases:
            found.append((node.lineno, f"class {node.name}(NamedTuple)"))
        for decorator in filter(_is_dataclass_decorator, node.decorator_list):
            if not _flag(decorator, "slots"):
                found.append((node.lineno, f"class {node.name}: a dataclass without slots=True"))
            if not _flag(decorator, "frozen") and _MUTABLE_WHY not in _comment_above(lines, decorator.lineno):
                found.append((node.lineno, f"class {node.name}: mutable, without a '# {_MUTABLE_WHY} ...' comment"))
    return [f"{line}: {fault}" for line, fault in sorted(found)]


def test_every_value_type_is_a_frozen_slotted_dataclass() -> None:
    found = {path.relative_to(PACKAGE).as_posix(): faults for path in sorted(PACKAGE.rglob("*.py"))
             if (faults := _value_type_faults(path.read_text(encoding="utf-8")))}
    assert found == {}, "a value: @dataclass(frozen=True, slots=True); a holder: slots=True and why it is mutable"


def test_the_value_type_scan_sees_what_it_looks_for() -> None:
    sample = ("class A(NamedTuple): pass\n"
              "class B(typing.NamedTuple): pass\n"
              "C = collections.namedtuple('C', 'x')\n"
              "@dataclass\nclass D: pass\n"
              "@dataclasses.dataclass(frozen=True)\nclass E: pass\n"
              "@dataclass(slots=True)\nclass F: pass\n"
              "# the cursor moves: mutable because it is the view's state\n@dataclass(slots=True)\nclass G: pass\n"
              "@dataclass(frozen=True, slots=True)\nclass H: pass\n"
              "@dataclasses.dataclass(frozen=True, slots=True, kw_only=True)\nclass I(Record): pass\n")
    assert _value_type_faults(sample) == [
        "1: class A(NamedTuple)", "2: class B(NamedTuple)", "3: namedtuple()",
        "5: class D: a dataclass without slots=True", "5: class D: mutable, without a '# mutable because ...' comment",
        "7: class E: a dataclass without slots=True",
        "9: class F: mutable, without a '# mutable because ...' comment"]
