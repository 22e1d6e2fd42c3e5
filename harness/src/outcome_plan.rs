//! [`Plan`]: which cases a run has, held as lanes × cases (the form
//! `cases.json` stores), so a case's name is held once for all its lanes
//! instead of once per case.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::CasePlan;
use crate::lane::Lane;

/// The cases of a run: the lanes with a case, the cases planned on every
/// one of them, and per lane the cases planned on it but not on every
/// lane (a shard's plan, generated cases on some lanes). Each list is
/// sorted and a case is in `every` or in the lanes' `only` lists, never
/// both: one plan has one form. Serialized as the list of its
/// [`CasePlan`]s in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Plan {
    pub(crate) lanes: Vec<Lane>,
    pub(crate) every: Vec<Arc<str>>,
    pub(crate) only: BTreeMap<Lane, Vec<Arc<str>>>,
}

impl Plan {
    /// The plan of `cases`, in any order; a case given twice counts once.
    pub fn of(cases: impl IntoIterator<Item = CasePlan>) -> Self {
        let mut cases: Vec<CasePlan> = cases.into_iter().collect();
        cases.sort();
        cases.dedup();
        let mut lanes: Vec<Lane> = cases.iter().map(|c| c.lane).collect();
        lanes.dedup();
        let mut on: BTreeMap<&str, usize> = BTreeMap::new();
        for c in &cases {
            *on.entry(&c.case).or_default() += 1;
        }
        let every: Vec<Arc<str>> = on
            .iter()
            .filter(|(_, n)| **n == lanes.len())
            .map(|(c, _)| Arc::from(*c))
            .collect();
        let mut only: BTreeMap<Lane, Vec<Arc<str>>> = BTreeMap::new();
        for c in cases.iter().filter(|c| on[&*c.case] != lanes.len()) {
            only.entry(c.lane).or_default().push(Arc::clone(&c.case));
        }
        Self { lanes, every, only }
    }

    /// How many cases.
    pub fn len(&self) -> usize {
        self.every.len() * self.lanes.len() + self.only.values().map(Vec::len).sum::<usize>()
    }

    pub fn is_empty(&self) -> bool {
        self.lanes.is_empty()
    }

    /// Every case, in (lane, case) order.
    pub fn iter(&self) -> impl Iterator<Item = CasePlan> + '_ {
        self.lanes.iter().flat_map(|&lane| {
            self.lane_cases(lane).into_iter().map(move |case| CasePlan {
                lane,
                case: Arc::clone(case),
            })
        })
    }

    /// The cases on `lane`, sorted: `every` and the lane's `only` merged.
    fn lane_cases(&self, lane: Lane) -> Vec<&Arc<str>> {
        let only = self.only.get(&lane).map_or(&[][..], Vec::as_slice);
        let mut out = Vec::with_capacity(self.every.len() + only.len());
        let (mut a, mut b) = (self.every.iter().peekable(), only.iter().peekable());
        loop {
            let next = match (a.peek(), b.peek()) {
                (Some(x), Some(y)) if x <= y => a.next(),
                (Some(_) | None, Some(_)) => b.next(),
                (Some(_), None) => a.next(),
                (None, None) => break,
            };
            out.extend(next);
        }
        out
    }
}

impl FromIterator<CasePlan> for Plan {
    fn from_iter<I: IntoIterator<Item = CasePlan>>(cases: I) -> Self {
        Self::of(cases)
    }
}

impl Serialize for Plan {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for Plan {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Vec::<CasePlan>::deserialize(d).map(Self::of)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(lane: Lane, case: &str) -> CasePlan {
        CasePlan {
            lane,
            case: case.into(),
        }
    }

    /// A plan holds each case once, in the form `cases.json` writes, and
    /// gives its cases back sorted, whatever order they came in.
    #[test]
    fn a_plan_is_lanes_times_cases_plus_each_lanes_own() {
        let (a, m) = (Lane::AnthropicMessages, Lane::Mistral);
        let given = [
            case(m, "c#z"),
            case(a, "c#y"),
            case(m, "c#x"),
            case(a, "c#x"),
            case(a, "c#a"),
            case(m, "c#x"),
        ];
        let plan = Plan::of(given.clone());
        assert_eq!(plan.lanes, [a, m]);
        assert_eq!(plan.every, [Arc::from("c#x")]);
        assert_eq!(
            plan.only,
            BTreeMap::from([
                (a, vec![Arc::from("c#a"), Arc::from("c#y")]),
                (m, vec![Arc::from("c#z")]),
            ])
        );
        let mut want = given.to_vec();
        want.sort();
        want.dedup();
        assert_eq!(plan.iter().collect::<Vec<_>>(), want);
        assert_eq!(plan.len(), 5);
        let json = serde_json::to_string(&plan).unwrap();
        assert_eq!(serde_json::from_str::<Plan>(&json).unwrap(), plan);
        assert_eq!(
            json,
            serde_json::to_string(&want).unwrap(),
            "serialized as the list of its cases"
        );
        assert!(Plan::of([]).is_empty());
        assert_eq!(Plan::of([]).len(), 0);
    }
}
