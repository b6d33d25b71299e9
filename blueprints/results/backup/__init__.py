"""A whole tournament as one JSON document, and back into a database.

The backup carries no database ids: rows refer to each other by what people call them
(player number, table number, round number, a sheet by round and table, an account by
email, a call or competition by its place in its list). So a backup imports into any
database, empty or already hosting other tournaments, and exporting it again gives the
same document. Audit subjects such as "round:12" are written as "round#3" (the round's
number) and turned back into the new row's id on import; the audit rows' before/after
values are copied exactly as they were written.

Accounts: staff and every account the rows mention travel as email, name and role, never
with a password hash (a backup file lives on USB sticks and laptops). On import no account
is created, attached or credited: the importing director becomes the tournament's only
staff, the file's staff are listed on the result ("invite them from Staff", where each
accepts an invitation themselves), and rows that named an account (audit rows, claims,
verifications, rulings, announcements, tie-breaks) keep their words but point at no account.
Every other value goes through the checks the forms and tournament/ apply: the rules through
RuleSet, every game through Game with its points scored again, every number within its
form's bounds and its column, every text within its column and free of control characters.

Table tokens: the import issues every table a fresh token (models.new_token()) unless
`keep_tokens` is asked for (the CLI's --keep-tokens, for a move with the cards already
printed); kept tokens must look like ours (22 to 64 URL-safe characters). With fresh
tokens the printed table cards must be reprinted. The tournament's public address (the one
the cards' QR codes carry) goes with the kept tokens, checked as setup checks it
(core.addresses); with fresh tokens it is left to the site's default, as the cards are
printed again from there.

Left out on purpose: idempotency keys of applied requests (only useful for resends to the
old server) and failed sign-ins."""

from .checks import FORMAT, VERSION, BackupError, load
from .export import export_tournament
from .importer import Imported, import_tournament

__all__ = ["FORMAT", "VERSION", "BackupError", "Imported", "export_tournament",
           "import_tournament", "load"]
