"""Swedish game terms used in the code, explained once.

The code is written in English; where Vira has its own real name for a thing,
that name is used and explained here.
"""

GLOSSARY: dict[str, str] = {
    "förhand": "forehand: the first player of a deal; receives cards first, opens the auction, leads.",
    "mellanhand": "middle-hand: the player to forehand's left.",
    "efterhand": "rear-hand: the player to forehand's right; deals (also givare, giv).",
    "talong": "the stock: the 13 cards left face down after the deal.",
    "högsta färg": "the highest suit: the suit of the visible bottom card of the spare deck.",
    "färg": "the other suit of the highest suit's colour ('in suit'); the two others are ofärger.",
    "ofärg": "off-suit: a suit of the other colour than the highest suit (cheapest trump).",
    "spelförare": "the declarer: whose bid was passed (avpassat) and who plays against the two others.",
    "begär": "6-spel, the lowest game of the bid table.",
    "i förhand": "in forehand: a bid repeating the standing bid from a seat nearer forehand (holding the bid).",
    "gask": "gask 0-6: the declarer keeps N cards, takes the whole stock and chooses 13.",
    "gök": "a gask game played low and open: the declarer takes the stock and may take no trick.",
    "vira": "a gask game in which the declarer must take all thirteen tricks.",
    "köpspel": "buying games: the declarer buys, may repurchase, then the opponents buy.",
    "omköp": "repurchase: the buying declarer's second exchange, which makes the payments harder.",
    "turné": "trump is the suit of the card turned up from the top of the stock.",
    "vingel": "trump is chosen from the suits of two cards turned up from the stock.",
    "tringel": "trump is chosen from the suits of three cards turned up from the stock.",
    "köpmisär": "a buying game played low: the declarer must buy exactly N cards.",
    "misär": "misère: a low game in sang (without trump); the declarer may take no trick.",
    "solo": "solo games: only the opponents buy.",
    "ouverte": "open: the declarer's cards are laid face up (misère ouverte).",
    "royale": "the declarer's cards are laid face up before the opponents buy.",
    "hem": "home: the declarer made the game.",
    "bet": "1) one trick short (or one trick in a low game); 2) the token worth 8 pins.",
    "kodilj": "two or more tricks short (or two tricks in a low game): a worse loss than bet, and it costs more.",
    "pulla": "the tin of tokens; during play the common kitty bets are paid to and lifted from.",
    "pinne": "pin: the smallest token; payments between players are counted in pins.",
    "runda": "round: a token worth two pins.",
    "åla": "ante: every player puts one bet into the pulla before the first deal.",
    "åla om": "ante again: everyone antes when the pulla cannot pay a winner.",
    "sexmastare": "a pin pushed halfway under the pulla, counting six bets, once a bowl has no bets, rounds or pins.",
    "beta in sig": "bet in: a player joining a session puts a third of the pulla in.",
    "låggard": "low holding: a suit whose low cards can set a gök (2; 4+3; 6+two; 8+three; 10+four).",
    "saka": "to discard on a trick one cannot follow.",
    "renons": "void: holding no card of a suit.",
    "Ågren-markering": (
        "Ågren marking: a defender's first two discards; high-low shows strength, low-high weakness,"
        " in the suit or the two suits discarded."
    ),
    "Borup": "the last deal of a session.",
}
