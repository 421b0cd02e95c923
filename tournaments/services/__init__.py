"""The services: every change of a tournament's state, and the standings.

One module for each thing the services own, over the audited, locked write path
(``tournaments.services.write``) that each change goes through:

- ``tournament``: a tournament's settings and arbiters, the initial colour drawn;
- ``players``: registration, TPNs (C.04.2 Art. 2.2-2.3), late entries, withdrawals, byes;
- ``rounds``: pairing by the engine, unpairing, publishing, finishing;
- ``results``: results entered and changed;
- ``corrections``: Art. 4.3 (a result, colours, a rating corrected);
- ``pairing_changes``: pairings changed by hand (drafts, Art. 4.4);
- ``bulk``: the same change for several players at once;
- ``trf_import``, ``trf_export``, ``csv_import``: files in and out;
- ``standings`` and ``tiebreak_list``: the ranking (C.07);
- ``engine_state``: the tournament as the engine sees it;
- ``double_swiss``: what a match of two games (C.04.5) changes in all of these.

The names below are the services' public interface, as the views and the API call them.
"""

from tournaments.services.csv_import import (
    CSV_COLUMNS,
    CSV_HEADERS,
    csv_header_names,
    import_players_csv,
    parse_players_csv,
)
from tournaments.services.engine_state import EngineState, build_engine_state, engine_state
from tournaments.services.errors import ServiceError
from tournaments.services.players import (
    PLAYER_FIELDS,
    add_player,
    admit_late_entry,
    cancel_bye,
    clean_player_fields,
    register_players,
    reinstate_player,
    remove_player,
    renumber_players,
    request_bye,
    update_player,
    withdraw_player,
)
from tournaments.services.results import (
    BoardEntered,
    ResultsSaved,
    enter_board,
    set_result,
    set_results,
)
from tournaments.services.rounds import (
    finish_round,
    pair_next_round,
    publish_round,
    unpair_round,
    unpublish_round,
)
from tournaments.services.standings import Standing, standings
from tournaments.services.tiebreak_list import tiebreak_names, tiebreak_specs
from tournaments.services.tournament import (
    add_arbiter,
    create_tournament,
    draw_initial_color,
    update_tournament,
)
from tournaments.services.trf_export import export_trf
from tournaments.services.trf_import import import_players_trf, import_trf
from tournaments.services.write import round_changed_meanwhile

__all__ = [
    "CSV_COLUMNS",
    "CSV_HEADERS",
    "csv_header_names",
    "PLAYER_FIELDS",
    "BoardEntered",
    "EngineState",
    "ResultsSaved",
    "ServiceError",
    "Standing",
    "add_arbiter",
    "add_player",
    "admit_late_entry",
    "build_engine_state",
    "cancel_bye",
    "clean_player_fields",
    "create_tournament",
    "draw_initial_color",
    "enter_board",
    "engine_state",
    "export_trf",
    "finish_round",
    "import_players_csv",
    "import_players_trf",
    "import_trf",
    "pair_next_round",
    "parse_players_csv",
    "publish_round",
    "register_players",
    "reinstate_player",
    "remove_player",
    "renumber_players",
    "request_bye",
    "round_changed_meanwhile",
    "set_result",
    "set_results",
    "standings",
    "tiebreak_names",
    "tiebreak_specs",
    "unpair_round",
    "unpublish_round",
    "update_player",
    "update_tournament",
    "withdraw_player",
]
