"""What a printed score sheet asks for under a rule set: its columns, its initials boxes
and the conventions the organiser's sheet names, as plain words for a template.

Pure: reads a RuleSet, knows nothing of players, tables or pages. The printed page fills
in the tournament, the round, the table and who sits where."""

from __future__ import annotations

from dataclasses import dataclass

from .rules import RuleSet


@dataclass(frozen=True)
class PaperSheet:
    rules_name: str                   # "Crak Your Bags rules": the rule set it follows
    columns: tuple[str, ...]          # one per game, before each seat's points
    game_initials: str                # the heading of the per-game initials box ("" none)
    game_initials_per_seat: bool      # a box under each seat's points instead of one
    game_initials_note: str           # who writes in those boxes ("" where there are none)
    round_initials: bool              # every player initials the round total
    west_checks: bool                 # West checks East's sheet before it is handed in
    guide_verifies: bool              # a table guide verifies the sheet at the round's end
    key: tuple[str, ...]              # the scoring the table needs in front of it
    zero: str = "X"                   # how zero is written


def _points(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _thrower_words(rules: RuleSet) -> str:
    zero_one, _, two, three, _ = rules.thrower_penalty
    parts = [f"0-1 exposures {_points(zero_one) if zero_one else 'nothing'}",
             f"2 exposures {_points(two)}", f"3 or more {_points(three)}"]
    if rules.quint_two_exposure_penalty is not None:
        parts.append(f"2 exposures in a Quint hand {_points(rules.quint_two_exposure_penalty)}")
    return "Thrower: " + ", ".join(parts) + "."


def paper_sheet(rules: RuleSet) -> PaperSheet:
    """The printed sheet for `rules` (see PaperSheet)."""
    columns = ["Winner (seat)", "Card value", f"Self-picked {_points(rules.self_pick_bonus)}",
               f"No jokers {_points(rules.jokerless_bonus)}", "Thrower (seat)",
               "Winner's exposures", "Dead hands (seats)"]
    penalties = [words for value, words in (
        (rules.blind_pass_peek_penalty, "looked at a blind pass"),
        (rules.misnamed_exposure_penalty, "misnamed an exposure tile"),
    ) if value is not None]
    if penalties:
        columns.append("Penalties (seat, what)")
    if rules.game_signoff == "winner":
        game_initials = "Winner's initials (West's when East wins and for wall games)"
    elif rules.game_signoff == "all":
        game_initials = "Every player's initials"
    elif rules.game_signoff == "across":
        game_initials = "Initials of the player across"
    else:
        game_initials = ""
    game_initials_note = {
        "all": f"{game_initials}: each player initials their points in every game.",
        "across": f"{game_initials}: in every game, each player checks and initials the "
                  "points of the player across (West for East, North for South, East for "
                  "West, South for North).",
    }.get(rules.game_signoff or "", "")
    key = [f"Winner: the card value. Self-picked {_points(rules.self_pick_bonus)}. "
           f"No jokers {_points(rules.jokerless_bonus)} (never for Singles and Pairs).",
           _thrower_words(rules),
           f"Wall game: {_points(rules.wall_game_points)} to each player not dead"
           + (" and not in error." if rules.mah_jongg_in_error else "."),
           "Dead hand: 0, no wall points, no thrower penalty."]
    if rules.heavenly == "bonus":
        key.append(f"Heavenly or earthly hand (East): {_points(rules.heavenly_bonus)}.")
    elif rules.heavenly == "self_picked":
        key.append("Heavenly or earthly hand (East): counts as self-picked.")
    for value, words in ((rules.blind_pass_peek_penalty, "Looked at a blind-pass tile"),
                         (rules.misnamed_exposure_penalty, "Misnamed a tile called for an "
                          "exposure"),
                         (rules.misnamed_discard_penalty, "Misnamed the winning discard")):
        if value is not None:
            key.append(f"{words}: {_points(value)}.")
    key.append("Time called before a game ends: "
               + ("every game of the round scores X." if rules.time_called_zeroes == "round"
                  else "that game scores X for everyone."))
    key.append("Write X for zero points, never O.")
    return PaperSheet(rules_name=f"{rules.short_name} rules", columns=tuple(columns),
                      game_initials=game_initials,
                      game_initials_per_seat=rules.game_signoff in ("all", "across"),
                      game_initials_note=game_initials_note,
                      round_initials=rules.round_signoff_all,
                      west_checks=rules.west_checks_sheet,
                      guide_verifies=rules.table_guide_verifies, key=tuple(key))
