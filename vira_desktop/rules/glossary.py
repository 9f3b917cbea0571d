"""Vira's own words, the one list of them.

The code is written in English; where Vira has its own real name for a thing, that name is
used (Swedish in every language, as the rulebook writes it). :data:`GLOSSARY_TERMS` lists
them in the order a player meets them, each with its entry's key; the meanings are the
catalogs' ``glossary.term.<key>``, in each language (the glossary sheet draws them, and a
lesson's words show them under the mouse).
"""

__all__ = ["GLOSSARY_TERMS", "term_words"]

# (entry, headword). A headword of a few words joined by " / " is one entry for them all.
GLOSSARY_TERMS: tuple[tuple[str, str], ...] = (
    ("forhand", "förhand"),
    ("mellanhand", "mellanhand"),
    ("efterhand", "efterhand"),
    ("givare", "givare"),
    ("kupera", "kupera"),
    ("talong", "talong"),
    ("hogsta_farg", "högsta färg"),
    ("farg", "färg"),
    ("ofarg", "ofärg"),
    ("spelforare", "spelförare"),
    ("begar", "begär"),
    ("spel", "7-spel / 8-spel / 9-spel"),
    ("i_forhand", "i förhand"),
    ("kopspel", "köpspel"),
    ("enkelt_kop", "enkelt köp"),
    ("omkop", "omköp"),
    ("turne", "turné"),
    ("vingel", "vingel"),
    ("tringel", "tringel"),
    ("turnera_om", "turnéra om / vingla om / tringla om"),
    ("gask", "gask"),
    ("gok", "gök"),
    ("laggard", "låggard"),
    ("forsta_handen", "första handen / andra handen"),
    ("vira", "vira"),
    ("kopmisar", "köpmisär"),
    ("misar", "misär"),
    ("solo", "solo"),
    ("ouverte", "ouverte"),
    ("royale", "royale"),
    ("hem", "hem"),
    ("bet", "bet"),
    ("kodilj", "kodilj"),
    ("pulla", "pulla"),
    ("pinne", "pinne"),
    ("runda", "runda"),
    ("triangel", "triangel"),
    ("ala", "åla"),
    ("ala_om", "åla om"),
    ("sexmastare", "sexmastare"),
    ("saka", "saka"),
    ("renons", "renons"),
    ("agren", "Ågren-markering"),
    ("blanda_in", "blanda in sig och kupera ut sig"),
    ("beta_in", "beta in sig"),
    ("borup", "Borup"),
)


def term_words(term: str) -> tuple[str, ...]:
    """The words a headword stands for: "turnéra om / vingla om / tringla om" is three."""
    return tuple(word.strip() for word in term.split(" / "))
