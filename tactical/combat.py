"""Combat, one door for its users: shock (003 §8.3), missile and reaction fire (003 §8.1-8.2,
000 §8.1), rally (003 §10.27), with the charts of ``tactical.charts`` (the other half of the
data).  The rules live by concept in ``tactical.effects`` (what combat does to units),
``tactical.missile`` and ``tactical.shock``; ``tactical.rout`` holds rout and withdrawal.

Registered with the engine (``engine.apply``), the case adapter (``cases.VERBS``) and the
sequence (mandatory rally at the end of an activation).
"""

from __future__ import annotations

from tactical.actions import Designate as Designate
from tactical.actions import Fire as Fire
from tactical.actions import Rally as Rally
from tactical.actions import React as React
from tactical.actions import Resolve as Resolve
from tactical.actions import Shock as Shock
from tactical.effects import (
    _GRADE_CHART_TYPE as _GRADE_CHART_TYPE,
)
from tactical.effects import (
    REGROUP as REGROUP,
)
from tactical.effects import (
    RESULT_TEXT as RESULT_TEXT,
)
from tactical.effects import (
    _adjacent_dirs as _adjacent_dirs,
)
from tactical.effects import (
    _clock_angle as _clock_angle,
)
from tactical.effects import (
    _combat_terrain as _combat_terrain,
)
from tactical.effects import (
    _disorder as _disorder,
)
from tactical.effects import (
    _retreat as _retreat,
)
from tactical.effects import (
    _rout as _rout,
)
from tactical.effects import (
    _rules as _rules,
)
from tactical.effects import (
    _shock_disorder as _shock_disorder,
)
from tactical.effects import (
    _unit as _unit,
)
from tactical.effects import (
    _weapon_name as _weapon_name,
)
from tactical.effects import (
    add_hits as add_hits,
)
from tactical.effects import (
    attack_position as attack_position,
)
from tactical.effects import (
    disorder_again_routs as disorder_again_routs,
)
from tactical.effects import (
    leader_with as leader_with,
)
from tactical.effects import (
    rampage as rampage,
)
from tactical.effects import (
    refresh_engaged as refresh_engaged,
)
from tactical.effects import (
    roll_rampage as roll_rampage,
)
from tactical.missile import (
    _check_reaction_fire as _check_reaction_fire,
)
from tactical.missile import (
    _fire as _fire,
)
from tactical.missile import (
    _fire_arc_ok as _fire_arc_ok,
)
from tactical.missile import (
    _fire_capable as _fire_capable,
)
from tactical.missile import (
    _front_arc as _front_arc,
)
from tactical.missile import (
    _pilum_reaction as _pilum_reaction,
)
from tactical.missile import (
    check_return_fire as check_return_fire,
)
from tactical.missile import (
    fire_check as fire_check,
)
from tactical.missile import (
    fire_reaction as fire_reaction,
)
from tactical.missile import (
    hit_and_run_check as hit_and_run_check,
)
from tactical.missile import (
    hit_and_run_zone as hit_and_run_zone,
)
from tactical.missile import (
    may_return_fire as may_return_fire,
)
from tactical.missile import (
    resolve_fire as resolve_fire,
)
from tactical.missile import (
    return_fire as return_fire,
)
from tactical.missile import (
    weapon_name as weapon_name,
)
from tactical.shock import (
    _HORSE as _HORSE,
)
from tactical.shock import (
    NO_PILUM_COLUMNS as NO_PILUM_COLUMNS,
)
from tactical.shock import (
    ShockPlan as ShockPlan,
)
from tactical.shock import (
    _advance as _advance,
)
from tactical.shock import (
    _chart_type as _chart_type,
)
from tactical.shock import (
    _check_shock_command as _check_shock_command,
)
from tactical.shock import (
    _leader_casualties as _leader_casualties,
)
from tactical.shock import (
    _no_pilum_drms as _no_pilum_drms,
)
from tactical.shock import (
    _pursuit as _pursuit,
)
from tactical.shock import (
    _rally_command as _rally_command,
)
from tactical.shock import (
    _rally_roll as _rally_roll,
)
from tactical.shock import (
    _reduce as _reduce,
)
from tactical.shock import (
    _reduce_offered as _reduce_offered,
)
from tactical.shock import (
    _resolve_v1 as _resolve_v1,
)
from tactical.shock import (
    _retreat_before_combat as _retreat_before_combat,
)
from tactical.shock import (
    _v1_column as _v1_column,
)
from tactical.shock import (
    _v1_effect as _v1_effect,
)
from tactical.shock import (
    _vacant_retreat as _vacant_retreat,
)
from tactical.shock import (
    _weapon_choice as _weapon_choice,
)
from tactical.shock import (
    _weapons_value as _weapons_value,
)
from tactical.shock import (
    check_shock_react as check_shock_react,
)
from tactical.shock import (
    close_designation as close_designation,
)
from tactical.shock import (
    designate as designate,
)
from tactical.shock import (
    engaged_must_attack as engaged_must_attack,
)
from tactical.shock import (
    fire_as as fire_as,
)
from tactical.shock import (
    handle as handle,
)
from tactical.shock import (
    mandatory_rally as mandatory_rally,
)
from tactical.shock import (
    must_rally as must_rally,
)
from tactical.shock import (
    plan_shock as plan_shock,
)
from tactical.shock import (
    pursuers_return as pursuers_return,
)
from tactical.shock import (
    rbc_allowed as rbc_allowed,
)
from tactical.shock import (
    rbc_end as rbc_end,
)
from tactical.shock import (
    rbc_paths as rbc_paths,
)
from tactical.shock import (
    regroup_return as regroup_return,
)
from tactical.shock import (
    resolve_rally as resolve_rally,
)
from tactical.shock import (
    resolve_shock as resolve_shock,
)
from tactical.shock import (
    shock_drms as shock_drms,
)
from tactical.shock import (
    shock_reactions as shock_reactions,
)
from tactical.shock import (
    take_designation as take_designation,
)
from tactical.shock import (
    trim_designations as trim_designations,
)
