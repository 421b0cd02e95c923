"""Arbiter dashboard URLs (login required; writes only by the tournament's arbiters)."""

from django.urls import path

from tournaments import (
    views_arbiter as v,
    views_bulk,
    views_corrections as c,
    views_fide,
    views_print,
    views_prizes,
    views_registration,
    views_results as r,
)

urlpatterns = [
    path("", v.home, name="arbiter-home"),
    path("new/", v.tournament_create, name="arbiter-tournament-create"),
    path("import/", v.tournament_import, name="arbiter-tournament-import"),
    path("import-event/", v.event_import, name="arbiter-event-import"),
    path("t/<int:pk>/", v.tournament_detail, name="arbiter-tournament"),
    path("t/<int:pk>/settings/", v.tournament_edit, name="arbiter-tournament-edit"),
    path("t/<int:pk>/arbiters/", v.add_arbiter, name="arbiter-add-arbiter"),
    path("t/<int:pk>/players/add/", v.player_add, name="arbiter-player-add"),
    path("t/<int:pk>/players/upload/", v.players_upload, name="arbiter-players-upload"),
    path("t/<int:pk>/players/late/", v.late_entry, name="arbiter-late-entry"),
    path("t/<int:pk>/players/renumber/", v.renumber, name="arbiter-renumber"),
    path("t/<int:pk>/players/<int:player_pk>/", v.player_edit, name="arbiter-player"),
    path(
        "t/<int:pk>/players/<int:player_pk>/withdraw/",
        v.player_withdraw,
        name="arbiter-player-withdraw",
    ),
    path(
        "t/<int:pk>/players/<int:player_pk>/reinstate/",
        v.player_reinstate,
        name="arbiter-player-reinstate",
    ),
    path(
        "t/<int:pk>/players/<int:player_pk>/remove/", v.player_remove, name="arbiter-player-remove"
    ),
    path("t/<int:pk>/colour/", v.draw_colour, name="arbiter-draw-colour"),
    path("t/<int:pk>/byes/", v.bye_request, name="arbiter-bye"),
    path("t/<int:pk>/byes/<int:bye_pk>/cancel/", v.bye_cancel, name="arbiter-bye-cancel"),
    path("t/<int:pk>/pair/", v.pair, name="arbiter-pair"),
    path("t/<int:pk>/pairing/", v.pairing_job, name="arbiter-pairing-job"),
    path("t/<int:pk>/rounds/<int:number>/", r.round_detail, name="arbiter-round"),
    path("t/<int:pk>/rounds/<int:number>/explanation/", r.round_explanation,
         name="arbiter-round-explanation"),
    path("t/<int:pk>/rounds/<int:number>/unpair/", v.round_unpair, name="arbiter-round-unpair"),
    path("t/<int:pk>/rounds/<int:number>/publish/", v.round_publish, name="arbiter-round-publish"),
    path("t/<int:pk>/rounds/<int:number>/finish/", r.round_finish, name="arbiter-round-finish"),
    path("t/<int:pk>/rounds/<int:number>/quick/", r.quick_entry, name="arbiter-quick-entry"),
    path("t/<int:pk>/standings/", v.standings, name="arbiter-standings"),
    path("t/<int:pk>/audit/", c.audit, name="arbiter-audit"),
    path("t/<int:pk>/audit.csv", c.audit_csv, name="arbiter-audit-csv"),
    path(
        "t/<int:pk>/rounds/<int:number>/games/<int:game_pk>/correct/",
        c.game_correct,
        name="arbiter-game-correct",
    ),
    path("t/<int:pk>/rounds/<int:number>/pairing/", c.pairing_change, name="arbiter-pairing"),
    path("t/<int:pk>/rounds/<int:number>/repair/", c.round_repair, name="arbiter-round-repair"),
    path("t/<int:pk>/rounds/<int:number>/leave/", c.round_leave, name="arbiter-round-leave"),
    path(
        "t/<int:pk>/players/<int:player_pk>/rating/",
        c.rating_correct,
        name="arbiter-rating-correct",
    ),
    path("t/<int:pk>/export.trf", v.export_trf, name="arbiter-export-trf"),
    path("t/<int:pk>/event.json", v.export_event, name="arbiter-export-event"),
    # Several players at once, undoing a publish (issue 17).
    path("t/<int:pk>/players/bulk/", views_bulk.players_bulk, name="arbiter-players-bulk"),
    path(
        "t/<int:pk>/rounds/<int:number>/leave-many/",
        views_bulk.round_leave_many,
        name="arbiter-round-leave-many",
    ),
    path(
        "t/<int:pk>/rounds/<int:number>/unpublish/",
        views_bulk.round_unpublish,
        name="arbiter-round-unpublish",
    ),
    # FIDE's rating list (issue 17).
    path("t/<int:pk>/entries/", views_registration.entries, name="arbiter-entries"),
    path("t/<int:pk>/entries/open/", views_registration.open_close, name="arbiter-entries-open"),
    path(
        "t/<int:pk>/entries/<int:entry_pk>/", views_registration.decide,
        name="arbiter-entry-decide",
    ),
    path("t/<int:pk>/fide/", views_fide.search, name="arbiter-fide-list"),
    path("t/<int:pk>/fide/add/", views_fide.add, name="arbiter-fide-add"),
    path("t/<int:pk>/fide/refresh/", views_fide.refresh, name="arbiter-fide-refresh"),
    # Categories and prizes (issue 27).
    path("t/<int:pk>/prizes/", views_prizes.prizes, name="arbiter-prizes"),
    path("t/<int:pk>/categories/add/", views_prizes.category_add, name="arbiter-category-add"),
    path(
        "t/<int:pk>/categories/<int:category_pk>/",
        views_prizes.category_edit,
        name="arbiter-category",
    ),
    path(
        "t/<int:pk>/categories/<int:category_pk>/remove/",
        views_prizes.category_remove,
        name="arbiter-category-remove",
    ),
    path("t/<int:pk>/print/prizes/", views_prizes.print_prizes, name="print-prizes"),
    path("t/<int:pk>/print/categories/", views_prizes.print_categories, name="print-categories"),
    # Printable pages (issue 17).
    path(
        "t/<int:pk>/print/rounds/<int:number>/pairings/",
        views_print.pairings,
        name="print-pairings",
    ),
    path(
        "t/<int:pk>/print/rounds/<int:number>/alphabetical/",
        views_print.alphabetical,
        name="print-alphabetical",
    ),
    path("t/<int:pk>/print/rounds/<int:number>/slips/", views_print.slips, name="print-slips"),
    path("t/<int:pk>/print/standings/", views_print.standings, name="print-standings"),
    path("t/<int:pk>/print/crosstable/", views_print.crosstable, name="print-crosstable"),
    path(
        "t/<int:pk>/print/players/<int:player_pk>/norms/", views_print.norms, name="print-norms"
    ),
]
