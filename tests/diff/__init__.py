"""robotrules.diff: what changes from one robots.txt to another, as Google applies them."""
