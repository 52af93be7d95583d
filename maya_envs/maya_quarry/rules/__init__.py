"""Rules engine of Maya (Abacusspiele 2003), 3-5 players, basic game and advanced variant
(pure: stdlib + numpy).

Sources: the seed rulebook ``shared/seeds/001_c7015b41d4dc8a5b.txt`` (including the "Variation
for Advanced Players") and ``shared/rules/maya_quarry.md``. Split by phase:
:mod:`.config` (options, component table), :mod:`.state` (the state and its :class:`Phase`),
:mod:`.auction` (advanced variant, before phase 1), :mod:`.quarry` (phase 1), :mod:`.building`
(setup and phase 2), :mod:`.scoring` (phase 3, game end), :mod:`.engine` (flow and the handler
table), :mod:`.flow` (the engine as the phase handlers see it), :mod:`.serialize` (save and
load) and :mod:`.invariants` (what a loaded state must keep). Each phase module owns the
legal actions and effects of its decisions.

Component table: the numbers the rulebook omits are the rules file's section 4 PROPOSAL,
**non-canonical**, in ``maya_envs/maya_quarry/data/components.json`` (``components=`` replaces it).

Rule decisions, in one place (config option and default in brackets):

* **Setup.** From the start player, each seat places its 2 starting blocks on level 1, one
  per turn, never two of its colour in one pyramid. Start player: seat 0
  [``first_start_player=0``; ``"random"`` draws it].
* **Worker placement.** One card or a permanent pass per turn; first card at a quarry low;
  quarry limits. Action ids name the card *type* (value), so the mover chooses which card.
* **-3 targets.** Each -3 owner in the quarry being resolved, in turn order from the (current)
  start player, picks another seat with a score there (in the basic game: with cards there)
  that is not protected there [``minus3_targets="scored"``, section 6 DECISION; ``"card"``: a
  seat with cards there, the other reading of the seed's "another player of his choice in
  this quarry"], or no target [``minus3_no_target=True``, INFERENCE from "can"]. A -3 owner
  with no possible target has no decision.
* **Ranks.** Score = own positive cards - deductions; score <= 0 takes no rank; ties go to the
  earlier first card. Short pool [``pool_shortfall="partial"``, PROPOSAL].
* **Markers.** Rank 1 takes the marker. PROTECT_FROM_MINUS3: placed at once in an unrevealed
  quarry that holds cards (none: no effect). RELOCATE_TO_LEVEL1 and FREE_BLOCK_FROM_POOL: at
  once, optional ("may"): a decline action; relocation is two decisions (source, then a level-1
  target; a level-1 source cannot go back to its own pyramid) [``relocate_unsupported=
  "forbid"``, section 6 DECISION]; the free block goes to the lowest level of the chosen
  pyramid with a free space where the holder may build (section 6). FIRST_PLAYER: the winner
  appoints a start player at once (self allowed); it applies to the remaining -3 orders, the
  building phase and later rounds, and the marker is won again at its quarry every round
  (DECISION: the seed's "retains it" is read as the start player keeping that role until the
  next appointment). TRANSPORT_PLUS_2 at transport; FREE_PASS / FREE_DOUBLE_MOVE once in this
  round's building phase. All markers return to their quarries at the start of a round.
* **Transport.** Keep at most the points on unplayed cards (-3 = 0) (+2); the rest goes to the
  pool. Held counts are public.
* **Building.** From the start player, seats with blocks take turns: place a block, double
  move (pay 1 block; or free with the marker; needs 3 blocks, 2 if free), pass (pay 1; or
  free), or - only when no placement is legal - the involuntary pass (pay 1, +1 gold).
  DECISION: a double move is two placement decisions; if no placement is legal for the
  second one, the double move ends after the first. Global level rule
  [``global_level_rule="current"``, INFERENCE]; shorter pyramids count as full
  [``missing_levels_full=True``, PROPOSAL]. Bonus block: to the placer with the strict
  plurality [``bonus_block_recipient="placer"``: the seed's rule text and the rules file;
  ``"majority"`` follows the seed's Copan example, where Red gets the bonus for Blue's
  completing block]; also for completions by FREE_BLOCK, RELOCATE and bonus blocks
  [``bonus_on_special_placements=True``, INFERENCE]; a bonus block that completes its level
  can chain.
* **Scoring.** Per level (incomplete too): most blocks -> gold_first to all tied; the next
  count -> gold_second to all tied; everyone tied for most -> no second. Erosion after rounds
  1 and 2 with the cascade (order-independent, DERIVED).
* **End.** After round 3's scoring; most gold wins, then fewest blocks in the pool; remaining
  ties share the win. Rewards (section 6): ``win_loss`` (+1/w, -1/(n-w)) or ``gold_diff``
  [``reward_scheme="win_loss"``, ``gold_diff_scale=50``].
* **Forced decisions.** A decision with exactly one legal action is taken by the engine
  [``skip_forced=True``].

Advanced variant [``variant="advanced"``; seed "Variation for Advanced Players"]:

* **Gold.** Everyone starts with 10 gold (FACT); it is also the score.
* **Auction.** Before each round's worker placement (round 1: after setup), ``n - 1`` blue
  markers are on offer: all four at 5 players, otherwise drawn without replacement from the
  env's generator, again every round (FACT). Sealed bids, collected one seat at a time from
  the start player; a bid is an action ``0 .. min(gold, 30)`` (DECISION: the cap keeps the
  action table fixed; gold stays with the bidder until every bid is in, so nothing public
  moves). No seat's observation shows another seat's bid before all are in; then all bids are
  public until the next auction. Bid order: highest first, equal bids clockwise from the start
  player (FACT). The last seat in that order is "the lowest bidder": no marker, no payment
  (DECISION: with tied lowest bids only the last of them is out, since there are ``n - 1``
  markers for ``n`` seats); seats that bid 0 get nothing and pay nothing (FACT); every other
  seat pays its bid to the bank (INFERENCE, rules file) and picks one marker still on offer,
  in bid order (one decision each; unpicked markers stay out for the round).
* **Each blue marker is used once in its round** and all return before the next auction.
  BLUE_TRANSPORT_PLUS_4: +4 transport capacity, applied at transport. BLUE_EXTRA_BLOCK: at
  transport, after the surplus went back, its holder takes one block from its pool outside the
  capacity (automatic: the seed says "receives"). BLUE_PLUS_2_QUARRY_POINTS: when everyone has
  passed, its holder places it at a quarry holding at least one card [``plus2_empty_quarry=
  False``, INFERENCE from "next to the concealed column"; True allows any quarry] or declines
  ("may"); it adds 2 to the holder's score there, even without cards there (FACT). DECISION:
  a holder without a card there counts as present after every card placer, so it loses ties
  to any card and can be a -3 target there [``minus3_targets="scored"``; ``"card"``: it
  cannot].
* **Joker.** Right after the +2 points (so after everyone passed, before the first reveal;
  DECISION: the one moment at which every allowed green effect can still act), its holder
  picks the green marker it acts as, any except FIRST_PLAYER (FACT), or declines. Options that
  cannot take effect are masked. PROTECT_FROM_MINUS3: placed at once on a quarry holding cards
  (all unrevealed) and protects its holder there, alongside the green marker; RELOCATE and
  FREE_BLOCK act at once with their usual decisions; TRANSPORT_PLUS_2 applies at transport;
  FREE_PASS and FREE_DOUBLE_MOVE are held for this round's building (a seat holding the green
  marker and the joker as the same one may use each once; the green one is spent first).
"""

from maya_envs.maya_quarry.rules.config import BLUE_MARKERS, MARKERS, Components, MayaQuarryConfig, load_components
from maya_envs.maya_quarry.rules.engine import MayaQuarryRules
from maya_envs.maya_quarry.rules.state import PHASE_NAMES, MayaQuarryState, Phase

__all__ = [
    "BLUE_MARKERS",
    "MARKERS",
    "PHASE_NAMES",
    "Components",
    "MayaQuarryConfig",
    "MayaQuarryRules",
    "MayaQuarryState",
    "Phase",
    "load_components",
]
