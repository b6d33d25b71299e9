"""The entry wizard's repeated bits of markup (table/_entry.html): its choice buttons, each
step's class and error. Built here, not as Jinja macros: the page calls them some forty
times and shows every seat, value and ending as a button, and a macro call with its loop
cost more than the rest of the page. The markup is exactly what the macros gave."""

from __future__ import annotations

from markupsafe import Markup, escape


def helpers(plan: dict[str, str], errors: dict[str, str]) -> dict:
    """The template's step_class, error_for, radios and checks for this wizard state."""

    def step_class(step: str) -> Markup:
        shown = plan.get(step)
        return Markup("step" + (" step-later" if shown == "later" else
                                " step-skip" if shown == "skip" else "")
                      + (" has-error" if errors.get(step) else ""))

    def error_for(step: str) -> Markup:
        if not errors.get(step):
            return Markup("")
        return Markup('<p class="error" id="err-%s">%s</p>') % (step, errors[step])

    def described(step: str) -> str:
        return f' aria-describedby="err-{escape(step)}"' if errors.get(step) else ""

    def buttons(kind: str, name: str, choices, checked, step: str) -> Markup:
        name_ = escape(name)
        more = described(step)
        parts = [f'<div class="choices choices-{name_}">\n    ']
        for value, label in choices:
            value_ = escape(value)
            parts.append(
                f'\n      <label class="choice" for="{name_}-{value_}"><input type="{kind}" '
                f'name="{name_}" id="{name_}-{value_}" value="{value_}"'
                f'{" checked" if checked(value) else ""}{more}><span>{escape(label)}'
                f'</span></label>\n    ')
        parts.append("\n  </div>")
        return Markup("".join(parts))

    def radios(name: str, choices, selected, step: str) -> Markup:
        return buttons("radio", name, choices,
                       lambda value: selected is not None and str(selected) == str(value),
                       step)

    def checks(name: str, choices, selected, step: str) -> Markup:
        chosen = selected or []
        return buttons("checkbox", name, choices, lambda value: value in chosen, step)

    return dict(step_class=step_class, error_for=error_for, radios=radios, checks=checks)
