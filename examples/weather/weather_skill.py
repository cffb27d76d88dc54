"""A minimal Kazma code skill: the hub stores and certifies it, it never runs it."""


class WeatherSkill:
    def get_weather(self, city: str) -> dict:
        return {"city": city, "summary": "unknown"}
