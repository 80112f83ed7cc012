"""The fault suite (issue #8): a fleet of crawler processes while its shared store fails."""
