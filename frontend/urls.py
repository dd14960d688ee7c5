# The player and GM pages come here (issue for the frontend); empty so the project routes today.
urlpatterns: list = []
