"""Placeholder demo until course-stream lands."""

print("course: workspace ready")
