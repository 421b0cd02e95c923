"""Read-only REST API (Django REST Framework) for scoreboards and other programs."""
