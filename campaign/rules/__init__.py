"""The campaign's rules, one module per concept (docs/rules/campaign.md §7–§13):
``sequence`` (the turn), ``march`` (land movement), ``naval`` (voyages, interception,
mutual naval battles), ``supply`` (land and sea supply, forage, winter), ``siege``
(occupation, sieges, storms) and ``battle`` (engagements and outcomes)."""
