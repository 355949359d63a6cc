"""How a generated customer states each fact: several phrasings per fact, per kind of writer.

A row's number picks the phrasing, so two packs of one style rarely answer alike; ``typos``
and ``emotional`` writers get their own spelling and punctuation over the same facts. A value
(a date, a policy number, a plate, an amount) is never respelt.
"""

from __future__ import annotations

import datetime as dt
import re

MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December")

# {v} is the value in words; each list is rotated by the row's number.
SAY: dict[str, list[str]] = {
    "policy_number": ["It's {v}.", "The policy number is {v}.", "{v}", "My policy number is {v}.",
                      "Policy {v}.", "Here it is: {v}."],
    "incident_date": ["It happened on {v}.", "On {v}.", "{v}.", "It was {v}.",
                      "That was on {v}.", "The date was {v}."],
    "incident_time": ["At about {v}.", "Around {v}.", "It was {v} or very close to it.",
                      "{v}, roughly.", "Just about {v}.", "I'd say {v}."],
    "incident_location": ["It was at {v}.", "{v}.", "At {v}.", "This was at {v}.",
                          "The place was {v}.", "It happened at {v}."],
    "vehicle_registration": ["The registration is {v}.", "{v}", "It's {v}.", "Reg is {v}.",
                             "My plate is {v}.", "The number plate reads {v}."],
    "damaged_items": ["{v}.", "It was {v}.", "Just {v}.", "The thing in question is {v}.",
                      "{v}, that's all.", "Only {v}."],
    "police_reference": ["The crime reference is {v}.", "The police gave me {v}.",
                         "Yes, it's {v}.", "Reported it, reference {v}.",
                         "Yes, the reference number is {v}.", "{v} is the police number."],
}
YES_NO: dict[str, dict[str, list[str]]] = {
    "injuries": {"no": ["No, nobody was hurt.", "No, no one was injured.", "Nobody was hurt, no.",
                        "No injuries, thankfully.", "No, everyone is fine."],
                 "yes": ["Yes, I was hurt.", "Yes, I hurt my neck and went to hospital.",
                         "Yes, I was injured and saw a doctor."]},
    "vehicle_driveable": {"yes": ["Yes, it still drives.", "Yes, I can still drive it.",
                                  "Yes, it's driveable.", "It drives fine, yes."],
                          "no": ["No, it can't be driven.", "No, it's not driveable.",
                                 "No, I can't drive it now."]},
    "third_party_involved": {"yes": ["Yes, another vehicle was involved.",
                                     "Yes, there was another car.",
                                     "Yes, another driver was involved."],
                             "no": ["No, nobody else was involved.",
                                    "No, no other vehicle was involved.",
                                    "No, just me."]},
    "property_habitable": {"yes": ["Yes, we can still live there.",
                                   "Yes, I can still live in the house.",
                                   "Yes, it's liveable, just messy."],
                           "no": ["No, we can't live in the house at the moment.",
                                  "No, it isn't safe to live in; we're with family.",
                                  "No, we've had to move out for now."]},
}
TYPE_SAY: dict[str, list[str]] = {
    "collision": ["It was a collision.", "A collision with another car.", "Collision."],
    "theft": ["Theft, it was stolen.", "It was a theft.", "Theft."],
    "windscreen": ["Windscreen damage.", "It's the windscreen.", "Windscreen, cracked glass."],
    "vandalism": ["Vandalism, someone did it on purpose.", "Vandalism."],
    "escape_of_water": ["Escape of water, a leak.", "It was an escape of water.",
                        "Escape of water from a pipe."],
    "storm": ["Storm damage.", "It was the storm.", "Storm, the wind did it."],
    "fire": ["A fire.", "Fire in the kitchen.", "It was a fire."],
    "accidental_damage": ["Accidental damage.", "It was accidental damage, an accident.",
                          "Accidental damage, I broke it by accident."],
}
TOPICS: dict[str, str] = {
    "policy_number": "my policy number",
    "incident_date": "the date it happened",
    "incident_time": "the time it happened",
    "incident_type": "what kind of incident it was",
    "incident_location": "where it happened",
    "incident_description": "what happened",
    "vehicle_registration": "my car's registration plate",
    "vehicle_driveable": "whether the car can still be driven",
    "third_party_involved": "whether another vehicle or person was involved",
    "injuries": "whether anyone was hurt",
    "property_habitable": "whether I can still live in the house",
    "damaged_items": "what was stolen or damaged",
    "items_value": "how much the things were worth",
    "police_reference": "the police reference number",
}
_TYPO_SWAPS = {"the": "teh", "because": "becuase", "happened": "happend", "about": "abuot",
               "would": "woud", "really": "realy", "thanks": "thx",
               "there": "ther", "definitely": "definately", "registration": "registraton",
               "number": "numbr", "still": "stil", "another": "anothr"}
_VALUE = re.compile(r"\{v\}")


def spoken_date(day: dt.date) -> str:
    return f"{day.day} {MONTHS[day.month - 1]} {day.year}"


def clock(hhmm: str) -> str:
    """'17:40' -> '5:40pm' (the way people type times)."""
    h, m = (int(x) for x in hhmm.split(":"))
    suffix = "am" if h < 12 else "pm"
    h12 = h % 12 or 12
    return f"{h12}:{m:02d}{suffix}" if m else f"{h12}{suffix}"


def voiced(text: str, style: str, n: int) -> str:
    """The same words in a writer's manner; values in ``text`` are protected by the caller."""
    if style == "typos":
        words = text.replace("'", "").split(" ")
        out = []
        for i, w in enumerate(words):
            low = w.lower()
            if low in _TYPO_SWAPS and (i + n) % 2 == 0:
                w = _TYPO_SWAPS[low]
            out.append(w)
        text = " ".join(out)
        return text[:1].lower() + text[1:].rstrip(".")
    if style == "emotional" and text.endswith(".") and n % 2 == 0:
        return text[:-1] + "!"
    if style == "non_native":
        return (text.replace("nobody was", "nobody is").replace("It was ", "Is ")
                .replace("It happened", "It is happened"))
    return text


def phrase(options: list[str], n: int, value: str, style: str) -> str:
    """Option ``n`` (rotated), voiced for ``style``, with ``value`` put in untouched."""
    template = options[n % len(options)]
    parts = _VALUE.split(template)
    return value.join(voiced(p, style, n) if p.strip(" .,:") else p for p in parts)
