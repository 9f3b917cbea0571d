"""The tutorial: lessons as data (lesson.py) and the learner's saved progress (progress.py)."""
