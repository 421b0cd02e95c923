"""URL map: public pages at the root, the arbiter dashboard under /arbiter/, Django auth under
/accounts/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views import defaults

from tournaments import views_ops
from tournaments.api.views import not_found as api_not_found

urlpatterns = [
    path("", include("tournaments.urls_public")),
    path("arbiter/", include("tournaments.urls_arbiter")),
    path("api/", include("tournaments.api.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    # For the load balancer, the orchestrator and Prometheus (tournaments/views_ops.py).
    path("healthz", views_ops.healthz, name="healthz"),
    path("readyz", views_ops.readyz, name="readyz"),
    path("metrics", views_ops.metrics, name="metrics"),
]


def page_not_found(request, exception):
    """A 404 under /api/ is JSON, like every API error; elsewhere Django's page."""
    if request.path.startswith("/api/"):
        return api_not_found(request, exception)
    return defaults.page_not_found(request, exception)


handler404 = page_not_found
