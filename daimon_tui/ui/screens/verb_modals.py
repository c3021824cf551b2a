"""Modal screens for the curation verbs: inputs, the plan preview, the typed
confirmation for forget. Each dismisses with a typed result (None = cancel).

Everything that came from daimon's store (ids, item text) is made inert and
put into `rich.text.Text` objects, never into markup.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Input, Label, RadioButton, RadioSet, Static

from daimon_tui.domain import verbs
from daimon_tui.domain.inert import inert
from daimon_tui.ui.navigation import navigator
from daimon_tui.ui.style_sheets import sheet
from daimon_tui.ui.widgets.safe_input import SafeInput


def _text(value: object, style: str = "", limit: int = 300) -> Text:
    return Text(inert(value, limit=limit), style=style)


# How much of each item's text the dialogs show (the preview's full list shows more).
ITEM_TEXT_CUT = 100


def items_text(item_ids: tuple[str, ...], texts: dict[str, str]) -> Text:
    """The items a dialog acts on: each id with its text (inert, cut), or a count."""
    if len(item_ids) > 4:
        return _text(f"{len(item_ids)} marked items", "dim")
    out = Text()
    for n, item_id in enumerate(item_ids):
        if n:
            out.append("\n")
        out.append_text(_text(item_id, "dim"))
        if texts.get(item_id):
            out.append("  ")
            out.append_text(_text(texts[item_id], limit=ITEM_TEXT_CUT))
    return out


# Why daimon's read gives no text for an item (the preview names it by id only).
NO_TEXT_BECAUSE = {
    "quarantined": "(no text: a retracted value is withheld from every reader, this app included, "
                   "until the retraction is released)",
    "forgotten": "(no text: a forgotten value is removed from every surface)",
    "closed": "(no text: daimon cannot read its trust ledger, so it shows no value it cannot prove unretracted)",
    "absent": "(no text: no retained session holds this item)",
}


def plan_text(plan: verbs.Plan) -> Text:
    """The preview body: items, what is written where, side effects, refusals."""
    out = Text()
    facts = {f.item_id: f for f in plan.items}
    shown = [w.item_id for w in plan.writes] + [r.item_id for r in plan.refusals if r.item_id]
    if shown:
        out.append("Items\n", style="bold")
        for item_id in dict.fromkeys(shown):
            f = facts.get(item_id)
            out.append("  ")
            out.append_text(_text(item_id, "bold"))
            if f is not None:
                state = f.lifecycle
                chosen = verbs.safe_status(f.latest.status) if f.latest is not None else None
                if f.lifecycle in ("resolved", "superseded") and chosen and chosen != f.lifecycle:
                    # the status the person chose ("merged"), not only "resolved"
                    state = f"{f.lifecycle}: {chosen}"
                out.append(f"  [{f.kind} · {state}]  ", style="dim")
                if f.text:
                    out.append_text(_text(f.text, limit=160))
                elif f.lifecycle in NO_TEXT_BECAUSE:
                    out.append(NO_TEXT_BECAUSE[f.lifecycle], style="italic dim")
            out.append("\n")
    if plan.warnings:
        out.append("\n")
        for line in plan.warnings:
            out.append("  ⚠ ", style="bold")
            out.append_text(_text(line, "bold"))
            out.append("\n")
    if plan.writes:
        out.append("\nWill write\n", style="bold")
        for w in plan.writes:
            out.append("  → ")
            out.append_text(_text(w.record))
            out.append(f"   [{w.ledger} · channel {w.channel}]\n", style="dim")
            if w.note:
                # the note exactly as it will be written (inert)
                out.append("      note: ", style="dim")
                out.append_text(_text(w.note, limit=400))
                out.append("\n")
    if plan.effects:
        out.append("\nSide effects\n", style="bold")
        for line in plan.effects:
            out.append("  • ")
            out.append_text(_text(line))
            out.append("\n")
    if plan.refusals:
        out.append("\nRefused (nothing written for these)\n", style="bold")
        for r in plan.refusals:
            out.append("  ✗ ")
            if r.item_id:
                out.append_text(_text(r.item_id, "bold"))
                out.append(": ")
            out.append_text(_text(r.reason))
            out.append(f"  ({r.code})\n", style="dim")
    return out


# The preview body's height on a terminal with room for it.
BODY_ROWS = 22
# #verb-dialog's width in styles/verbs.tcss (its borders and padding take 4 more)
DIALOG_COLUMNS = 90


TOO_SOON = "y came too soon, before the preview could be read: press y again to confirm · n/esc cancel"


class ConfirmModal(ModalScreen[bool]):
    """A preview that asks y/n before a write.

    A `y` in the first `CONFIRM_DELAY_S` after opening is ignored: it was
    typed before the person could read the preview (a stray key, typed text).
    With an action log that cannot take the write's intent (`log_problem`),
    it only offers close: no intent in the log, no write to daimon."""

    CSS_PATH = sheet("verbs")  # read when first opened, not at the first frame

    CONFIRM_DELAY_S: ClassVar[float] = 0.4
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "confirm", "Confirm"),
        Binding("n,escape", "cancel", "Cancel"),
    ]

    def __init__(self, *, log_problem: str | None = None) -> None:
        super().__init__(classes="verb-modal")
        self.log_problem = log_problem
        self.opened_at = time.monotonic()

    @property
    def can_confirm(self) -> bool:
        return not self.log_problem

    def log_refusal(self) -> ComposeResult:
        if self.log_problem:
            # a Static wraps: the file and the errno at the end must stay readable
            yield Static(Text(f"✗ refused: {inert(self.log_problem)}", style="bold"), id="verb-log-problem",
                         classes="verb-below")

    def on_mount(self) -> None:
        self.opened_at = time.monotonic()

    def on_resize(self) -> None:
        # Title, hint and borders take ~10 rows, and the lines kept below the body
        # (a log refusal, a trust warning) the rows they wrap to: the body gets what
        # is left, so neither they nor the confirm line are ever cut off or covered.
        width = max(10, min(DIALOG_COLUMNS, self.size.width * 95 // 100) - 4)
        below = sum(len(line.content.wrap(self.app.console, width))
                    for line in self.query(".verb-below").results(Static))
        for body in self.query("#verb-body"):
            body.styles.max_height = max(3, min(BODY_ROWS, self.size.height - 10 - below))

    def action_confirm(self) -> None:
        if not self.can_confirm:
            return
        if time.monotonic() - self.opened_at < self.CONFIRM_DELAY_S:
            # Kept, never silently: the person learns the key was not taken.
            for hint in self.query("#verb-hint").results(Label):
                hint.update(Text(TOO_SOON, style="bold yellow"))
            return
        navigator(self.app).answer(self, True)

    def on_key(self, event: events.Key) -> None:
        # Typed-ahead text this dialog has no use for (the next `r`, an Enter)
        # ends here: it must not act on the app or on the dialog that opens next.
        if (event.is_printable or event.key == "enter") and event.key not in ("y", "n", "question_mark"):
            event.stop()
            event.prevent_default()

    def action_cancel(self) -> None:
        navigator(self.app).answer(self, False)


class PlanPreviewModal(ConfirmModal):
    """Shows a plan and asks y/n. With nothing to write, an action log that
    cannot take the verb's intent, or no room for daimon's store, it only offers close."""

    def __init__(self, plan: verbs.Plan, *, log_problem: str | None = None, store_problem: str | None = None) -> None:
        super().__init__(log_problem=log_problem)
        self.plan = plan
        self.store_problem = store_problem

    @property
    def can_confirm(self) -> bool:
        return self.plan.allowed and not self.store_problem and super().can_confirm

    def compose(self) -> ComposeResult:
        plan = self.plan
        with Vertical(id="verb-dialog", classes="irreversible" if plan.irreversible else ""):
            title = f"{plan.title}: preview"
            if plan.undoes:
                title += f" (undoes {plan.undoes})"
            yield Label(Text(inert(title), style="bold"), id="verb-title")
            with VerticalScroll(id="verb-body"):
                yield Static(plan_text(plan), id="verb-plan")
            if plan.trust_raised:
                # outside the scrolled body: a long plan must not push it out of sight before `y`
                raised = Text("\n").join(Text(f"⚠ {inert(line)}") for line in plan.trust_raised)
                raised.stylize("bold yellow")
                yield Static(raised, id="verb-trust-raised", classes="verb-below")
            yield from self.log_refusal()
            if self.store_problem:
                yield Static(Text(f"✗ refused: {inert(self.store_problem)}", style="bold"), id="verb-store-problem",
                             classes="verb-below")
            if self.log_problem:
                hint = "nothing can be written (the action log cannot record it) · n/esc close"
            elif self.store_problem:
                hint = "nothing can be written (daimon's store has no room) · n/esc close"
            elif plan.allowed:
                hint = "y confirm · n/esc cancel"
                if plan.irreversible:
                    hint = "IRREVERSIBLE · y continue to typed confirmation · n/esc cancel"
                elif plan.steps_over:
                    hint = (f"y undo the OLDER action named above, not the {len(plan.steps_over)} newer one(s) "
                            "· n/esc cancel")
            else:
                hint = "nothing can be written · n/esc close"
            yield Label(Text(hint), id="verb-hint")


class _InputModal(ModalScreen):
    CSS_PATH = sheet("verbs")  # read when first opened, not at the first frame
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]
    heading = ""

    def __init__(self, item_ids: tuple[str, ...]) -> None:
        super().__init__(classes="verb-modal")
        self.item_ids = item_ids
        # Each item's text, where the verb came from (`with_texts`): the person
        # sees what they act on, not only its id.
        self.texts: dict[str, str] = {}

    def with_texts(self, texts: dict[str, str] | None) -> _InputModal:
        self.texts = dict(texts or {})
        return self

    def _head(self) -> ComposeResult:
        yield Label(Text(self.heading, style="bold"), id="verb-title")
        yield Label(items_text(self.item_ids, self.texts), id="verb-items")

    def _error(self, message: str) -> None:
        self.query_one("#verb-error", Label).update(Text(message))

    def action_cancel(self) -> None:
        navigator(self.app).answer(self, None)


class ChoiceButton(RadioButton):
    """A radio button whose mark is a shape, not only a colour: the chosen
    status reads as chosen under NO_COLOR too."""

    @property
    def _button(self) -> Content:
        self.BUTTON_INNER = "●" if self.value else " "
        return super()._button


class ResolveModal(_InputModal):
    """Status (resolved/done/merged/gone/missing) and a note."""

    heading = "Resolve: the world changed"

    def __init__(self, item_ids: tuple[str, ...], status: str = "resolved") -> None:
        super().__init__(item_ids)
        self.status = status if status in verbs.RESOLVE_STATUSES else "resolved"

    def compose(self) -> ComposeResult:
        with Vertical(id="verb-dialog"):
            yield from self._head()
            with RadioSet(id="resolve-status"):
                for word in verbs.RESOLVE_STATUSES:
                    yield ChoiceButton(word, value=word == self.status, name=word)
            yield SafeInput(placeholder="note (optional): what changed", id="resolve-note")
            yield Label("", id="verb-error")
            yield Label(Text("enter continue · esc cancel"), id="verb-hint")

    def on_mount(self) -> None:
        self.query_one("#resolve-note", Input).focus()
        # RadioSet highlights its first button on mount: move the highlight to the chosen one.
        radios = self.query_one(RadioSet)
        for _ in range(max(radios.pressed_index, 0)):
            radios.action_next_button()

    def on_resize(self) -> None:
        # The five statuses need ~70 columns in one row.
        self.query_one(RadioSet).set_class(self.size.width < 76, "narrow")

    @on(RadioSet.Changed)
    def _status(self, event: RadioSet.Changed) -> None:
        self.status = event.pressed.name or "resolved"

    @on(Input.Submitted)
    def _submit(self) -> None:
        note = self.query_one("#resolve-note", Input).value.strip()
        navigator(self.app).answer(self, verbs.ResolveInput(status=self.status, note=note))


def _evidence_list(raw: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in raw.split(",") if part.strip())


class RetractModal(_InputModal):
    """Reason and typed evidence. `check` (daimon's own evidence rules, from the
    store layer) runs before the preview; a refusal keeps what was typed."""

    heading = "Retract: the claim was wrong"

    def __init__(self, item_ids: tuple[str, ...],
                 check: Callable[[str, tuple[str, ...]], str | None] | None = None) -> None:
        super().__init__(item_ids)
        self.check = check

    def compose(self) -> ComposeResult:
        with Vertical(id="verb-dialog"):
            yield from self._head()
            yield SafeInput(placeholder="reason (required)", id="retract-reason")
            yield SafeInput(placeholder="evidence (required): issue:42, url:…, artifact:…, transcript:…",
                        id="retract-evidence")
            yield Label("", id="verb-error")
            yield Label(Text("enter continue · esc cancel"), id="verb-hint")

    def on_mount(self) -> None:
        self.query_one("#retract-reason", Input).focus()

    @on(Input.Submitted, "#retract-reason")
    def _next(self) -> None:
        self.query_one("#retract-evidence", Input).focus()

    @on(Input.Submitted, "#retract-evidence")
    def _submit(self) -> None:
        reason = self.query_one("#retract-reason", Input).value.strip()
        evidence = _evidence_list(self.query_one("#retract-evidence", Input).value)
        if not reason or not evidence:
            self._error("a reason and at least one typed evidence source are required")
            return
        refused = self.check(reason, evidence) if self.check else None
        if refused:
            self._error(f"daimon would refuse: {inert(refused, limit=300)}")
            return
        navigator(self.app).answer(self, verbs.RetractInput(reason=reason, evidence=evidence))


# What daimon's reverify records (a human `reopened` event, `_cmd_reverify`)
# means for the item's state: an active item is re-checked, a closed one reopened.
_REVERIFY_WORDS = {
    "active": ("Reverify: re-check with evidence",
               "daimon records a human reopen: the item reads as checked now and its stale mark clears"),
    "closed": ("Reverify: reopen with evidence",
               "daimon records a human reopen: the item is live again in the briefing"),
    "both": ("Reverify: reopen or re-check with evidence",
             "daimon records a human reopen: a closed item is live again; an active one reads as checked now"),
}


def reverify_words(states: tuple[str | None, ...]) -> tuple[str, str]:
    """The modal's title and meaning for items in these states (`Item.state`;
    None where the state is not known, as for a queue entry: a claimed closure)."""
    active = {state == "visible" for state in states}
    return _REVERIFY_WORDS["both" if len(active) > 1 else "active" if active == {True} else "closed"]


class ReverifyModal(_InputModal):
    def __init__(self, item_ids: tuple[str, ...], *, states: tuple[str | None, ...] | None = None) -> None:
        super().__init__(item_ids)
        # each item's state where the verb came from; unknown (a queue entry): a claimed closure
        self.states = states

    def compose(self) -> ComposeResult:
        self.heading, meaning = reverify_words(self.states or tuple(None for _ in self.item_ids))
        with Vertical(id="verb-dialog"):
            yield from self._head()
            yield Label(_text(meaning), id="verb-meaning")
            yield SafeInput(placeholder="evidence you checked (without it daimon's gate may refuse)",
                        id="reverify-evidence")
            yield Label("", id="verb-error")
            yield Label(Text("enter continue · esc cancel"), id="verb-hint")

    def on_mount(self) -> None:
        self.query_one("#reverify-evidence", Input).focus()

    @on(Input.Submitted)
    def _submit(self) -> None:
        evidence = self.query_one("#reverify-evidence", Input).value.strip()
        navigator(self.app).answer(self, verbs.ReverifyInput(evidence=evidence))


class ForgetConfirmModal(_InputModal):
    """Type the item id to confirm an irreversible forget."""

    heading = "Forget (irreversible): type the item id to confirm"

    def __init__(self, item_id: str) -> None:
        super().__init__((item_id,))
        self.item_id = item_id

    def compose(self) -> ComposeResult:
        with Vertical(id="verb-dialog", classes="irreversible"):
            yield from self._head()
            yield SafeInput(placeholder="reason (optional, stored in daimon's tombstone)", id="forget-reason")
            yield SafeInput(placeholder="type the item id", id="forget-id")
            yield Label("", id="verb-error")
            yield Label(Text("enter forget · esc cancel"), id="verb-hint")

    def on_mount(self) -> None:
        self.query_one("#forget-id", Input).focus()

    @on(Input.Submitted, "#forget-reason")
    def _next(self) -> None:
        self.query_one("#forget-id", Input).focus()

    @on(Input.Submitted, "#forget-id")
    def _submit(self) -> None:
        typed = self.query_one("#forget-id", Input).value.strip()
        if typed != self.item_id:
            self._error("the typed id does not match; nothing is removed")
            return
        reason = self.query_one("#forget-reason", Input).value.strip()
        navigator(self.app).answer(self, verbs.ForgetInput(typed_id=typed, reason=reason))


class NothingSelectedModal(ModalScreen[None]):
    """A verb with nothing selected says so in the middle of the screen, and
    holds the keys that follow: a person already typing a note must not have
    its letters run as commands (a `z` then a `y` would write an undo). Only
    esc or enter close it."""

    CSS_PATH = sheet("verbs")  # read when first opened, not at the first frame

    def __init__(self, verb: str) -> None:
        super().__init__(classes="verb-modal")
        self.verb = verb

    def compose(self) -> ComposeResult:
        with Vertical(id="verb-dialog"):
            yield Label(Text(f"{self.verb}: no item selected", style="bold"), id="verb-title")
            yield Label(Text("move to an item (j/k) or mark some (space), then try again"), id="verb-items")
            yield Label(Text("esc/enter close"), id="verb-hint")

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        if event.key in ("escape", "enter"):
            navigator(self.app).answer(self, None)
