"""FIDE's published rating list: read it (TXT or XML, zipped or not; ``files``), load it
(``loading``), search it and refresh a tournament's players from it before round 1 (C.04.2
Art. 2.3; ``players``). The package re-exports the public interface.

The files are those of https://ratings.fide.com/download_lists.phtml: the combined list
``players_list_foa.txt`` (fixed columns named by its header line; the single-kind lists such
as ``standard_rating_list.txt`` name the rating column by the month, e.g. ``OCT26``) and the
XML lists (``<playerslist><player><fideid>..``). A file is read as a stream, one player at a
time, never whole: the combined list has more than a million players.
"""

from tournaments.fide_list.files import (
    FIELDS,
    FideListError,
    Limits,
    ListFile,
    detect_encoding,
    open_list,
    read_file,
    read_txt,
)
from tournaments.fide_list.loading import (
    SEARCH_INDEXES,
    Loaded,
    Progress,
    create_search_indexes,
    drop_search_indexes,
    import_list,
)
from tournaments.fide_list.players import (
    entries_for,
    player_fields,
    players_in_list,
    refresh_players,
    register_from_list,
    search,
    search_lines,
    start_query,
    words_query,
)

__all__ = [
    "FIELDS", "SEARCH_INDEXES", "FideListError", "Limits", "ListFile", "Loaded", "Progress",
    "create_search_indexes", "detect_encoding", "drop_search_indexes", "entries_for",
    "import_list", "open_list", "player_fields", "players_in_list", "read_file", "read_txt",
    "refresh_players", "register_from_list", "search", "search_lines", "start_query", "words_query",
]
