"""URL map: public pages at the root, the arbiter dashboard under /arbiter/, Django auth under
/accounts/."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

urlpatterns = [
    path("", include("tournaments.urls_public")),
    path("arbiter/", include("tournaments.urls_arbiter")),
    path("api/", include("tournaments.api.urls")),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
]
