"""robotrules.edit: block or allow crawlers and state a usage preference, changing nothing else."""
