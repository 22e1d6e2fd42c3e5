//! The structured schema generator: bytes → a [`Tool`] biased toward what
//! breaks shapers. One generator for every explorer of the same space: the
//! cargo-fuzz targets (`fuzz/src/input.rs`), the proptest properties
//! (`tests/props.rs`) and `wireshape run --fuzz N --seed S`
//! (`differential`, through [`FuzzSpec`]). Wraps the `arbitrary` crate.
//!
//! [`tool`] drives [`arbitrary::Unstructured`] through a menu of hostile
//! constructs: compositions at the root and nested, properties named like
//! keywords, name maps, literals shaped like schemas, every null encoding,
//! `$ref` cycles, deep nesting, huge enums, odd unicode names.
//! [`tool_from_bytes`] is the fuzz targets' entry: bytes that parse as JSON
//! are the tool (or its schema) as they are (the raw-bytes path the seeds and
//! the dictionary feed), any other bytes go to [`tool`].
//!
//! [`seeded`] is the run's entry: the `i`-th tool of a seed is [`tool`] fed
//! 512 bytes of a splitmix64 stream keyed by `(seed, i)`, so a seed names
//! the same tools on every run and machine, and the first N tools of a seed
//! do not depend on N.

use arbitrary::{Result, Unstructured};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::tool::Tool;

/// `--fuzz N --seed S`: the first `count` tools [`seeded`] makes for `seed`,
/// planned as cases `fuzz/<seed>#<i>` (i = 0..count) on every lane of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuzzSpec {
    pub count: usize,
    pub seed: u64,
}

impl FuzzSpec {
    /// The seed `--fuzz N` uses when `--seed` is absent.
    pub const DEFAULT_SEED: u64 = 0;

    /// The case id of the `index`-th generated tool: `fuzz/<seed>#<index>`
    /// (whatever the tool's name, so ids are unique).
    pub fn case_id(&self, index: usize) -> String {
        format!("fuzz/{}#{index}", self.seed)
    }

    /// The generated tools, in index order.
    pub fn tools(&self) -> impl Iterator<Item = Tool> + '_ {
        (0u64..).take(self.count).map(|i| seeded(self.seed, i))
    }

    /// The command that plans these cases again, for the pipelines `old` →
    /// `new` (`wireshape run` for v0 → v1, `wireshape diff` otherwise).
    pub fn command(&self, old: &str, new: &str) -> String {
        let verb = if (old, new) == ("v0", "v1") {
            "run".to_owned()
        } else {
            format!("diff --old {old} --new {new}")
        };
        format!(
            "wireshape {verb} --fuzz {} --seed {}",
            self.count, self.seed
        )
    }
}

/// Bytes of generator input per seeded tool.
const SEEDED_BYTES: usize = 512;

/// Streams [`seeded`] tries for one `(seed, index)` before it settles for
/// `fallback_tool`.
const SEEDED_ATTEMPTS: u64 = 16;

/// The `index`-th generated tool of `seed`: [`tool`] on 512 bytes of the
/// splitmix64 stream keyed by `(seed, index, attempt)` (words written
/// little-endian), attempt 0 first. Should the generator return an error,
/// the next attempt's stream is tried, and so it is when the schema nests
/// deeper than a catalog may (`schema::MAX_DEPTH`: the loader refuses such
/// a file, so a run never meets one from a catalog; the fuzz targets keep
/// them). After 16 such attempts the tool is the fixed `fuzz_fallback` (an
/// object schema with no properties). Pure: the same arguments give the same
/// tool on every run and machine.
pub fn seeded(seed: u64, index: u64) -> Tool {
    let key = SplitMix64(SplitMix64(seed).next() ^ index).next();
    for attempt in 0..SEEDED_ATTEMPTS {
        let mut stream = SplitMix64(key ^ attempt);
        let mut bytes = Vec::with_capacity(SEEDED_BYTES);
        while bytes.len() < SEEDED_BYTES {
            bytes.extend_from_slice(&stream.next().to_le_bytes());
        }
        if let Ok(t) = tool(&mut Unstructured::new(&bytes))
            && crate::schema::visit(&t.input_schema, &mut |_, _| {}).is_ok()
        {
            return t;
        }
    }
    fallback_tool()
}

/// What [`seeded`] gives when every attempt errs: `fuzz_fallback`, an
/// object schema with no properties.
fn fallback_tool() -> Tool {
    Tool::new("fuzz_fallback", json!({"type": "object", "properties": {}}))
}

/// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
/// generators", 2014): a fixed, portable stream of 64-bit words.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// JSON Schema keywords (and provider extensions) the generator uses as
/// keywords and as property names; `fuzz/json-schema.dict` lists the same.
pub const KEYWORDS: &[&str] = &[
    "type",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "prefixItems",
    "additionalItems",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "$ref",
    "$defs",
    "definitions",
    "$def",
    "$id",
    "$schema",
    "$anchor",
    "$dynamicRef",
    "$comment",
    "enum",
    "const",
    "default",
    "examples",
    "description",
    "title",
    "format",
    "pattern",
    "patternProperties",
    "propertyNames",
    "minLength",
    "maxLength",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
    "minProperties",
    "maxProperties",
    "dependentRequired",
    "dependentSchemas",
    "dependencies",
    "unevaluatedProperties",
    "unevaluatedItems",
    "contentSchema",
    "contentMediaType",
    "nullable",
    "deprecated",
    "readOnly",
    "writeOnly",
    "discriminator",
    "propertyOrdering",
    "strict",
    "x-extension",
];

const TYPES: &[&str] = &[
    "object", "string", "number", "integer", "boolean", "array", "null", "objekt", "any", "",
];

const FORMATS: &[&str] = &[
    "date-time",
    "date",
    "email",
    "uri",
    "uuid",
    "int64",
    "float",
    "enum",
    "regex",
    "",
];

const PATTERNS: &[&str] = &[
    "^[a-z]+$", "(?=a)b", "(?!x).*", "(?<=a)b", "(?<!a)b", "\\d{3}", "[", "\\p{L}+", "(a|b)*c", "",
];

/// Names that trip name handling: keywords, pointer syntax, controls,
/// bidi marks, combining characters, emoji, the empty name, a long one.
const ODD_NAMES: &[&str] = &[
    "",
    "a/b",
    "~0",
    "~1",
    "a~b/c",
    "#",
    "$ref",
    "properties",
    "a b",
    "a.b",
    "名前",
    "\u{202e}evil",
    "e\u{301}",
    "\u{1f600}",
    "\u{0}",
    "\n",
    "__proto__",
    "0",
    "-1",
    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
];

/// How deep a generated chain may go: past the walks' `MAX_DEPTH` (128)
/// and below serde_json's parse limit is where limits meet.
const MAX_CHAIN: usize = 200;

/// A tool from fuzzer bytes: JSON bytes are a tool (an object with
/// `input_schema`) or its schema as is, other bytes drive the structured
/// generator within [`Limits::for_len`] of their length.
pub fn tool_from_bytes(data: &[u8]) -> Result<Tool> {
    if let Ok(value) = serde_json::from_slice::<Value>(data) {
        // A whole tool (`{"name", "input_schema", "strict"?, ..}`) or a schema.
        if value.get("input_schema").is_some()
            && let Ok(tool) = serde_json::from_value::<Tool>(value.clone())
        {
            return Ok(tool);
        }
        return Ok(Tool::new("fuzz_tool", value));
    }
    tool_with(&mut Unstructured::new(data), Limits::for_len(data.len()))
}

/// How big a generated schema may grow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Schema nodes (each takes some input bytes; literals and leaves are
    /// free once it is spent).
    pub nodes: usize,
    /// Members of one huge `enum`.
    pub enum_len: usize,
    /// Depth of one keyword chain (past the walks' `MAX_DEPTH` is where
    /// the limits meet).
    pub chain: usize,
}

impl Limits {
    /// The full sizes: [`seeded`] (so a seed names the same tools whatever
    /// the fuzz targets do) and [`tool`].
    pub const SEEDED: Self = Self {
        nodes: 400,
        enum_len: 3000,
        chain: MAX_CHAIN,
    };

    /// Sizes bounded by the input's length, so a fuzz input's work grows
    /// with its bytes (and libFuzzer's `-max_len` bounds it): a node per 4
    /// bytes (once the bytes run out, `arbitrary` answers zeros and the
    /// generator would go on making nodes), at most `len` enum members and
    /// a chain `len` deep, and never past [`Limits::SEEDED`].
    pub fn for_len(len: usize) -> Self {
        Self {
            nodes: (len / 4).min(Self::SEEDED.nodes),
            enum_len: len.min(Self::SEEDED.enum_len),
            chain: len.clamp(1, Self::SEEDED.chain),
        }
    }
}

/// One generated tool at the full sizes ([`Limits::SEEDED`]).
pub fn tool(u: &mut Unstructured<'_>) -> Result<Tool> {
    tool_with(u, Limits::SEEDED)
}

/// One generated tool: a name, maybe a description and a strict flag, and a
/// schema that is usually an object at the root, within `limits`.
pub fn tool_with(u: &mut Unstructured<'_>, limits: Limits) -> Result<Tool> {
    let mut g = Gen {
        u,
        budget: limits.nodes,
        limits,
    };
    let name = if g.u.ratio(3, 4)? {
        "get_weather".to_owned()
    } else {
        g.name()?
    };
    let description = if g.u.arbitrary()? {
        Some(g.u.arbitrary::<String>()?)
    } else {
        None
    };
    let strict = g.u.arbitrary::<Option<bool>>()?;
    let schema = g.root()?;
    Ok(Tool {
        name,
        description,
        input_schema: schema,
        strict,
    })
}

struct Gen<'a, 'b> {
    u: &'a mut Unstructured<'b>,
    /// Nodes left to generate: keeps inputs (and shaping time) bounded.
    budget: usize,
    limits: Limits,
}

/// An object of `pairs`, in order. Unlike `json!`, which deep-copies every
/// `Value` it is given (through `to_value`), this moves them: a chain built
/// by nesting stays linear in its depth.
fn obj<const N: usize>(pairs: [(&str, Value); N]) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
}

/// A string value.
fn s(text: &str) -> Value {
    Value::String(text.to_owned())
}

impl Gen<'_, '_> {
    fn pick<T: Copy>(&mut self, from: &[T]) -> Result<T> {
        self.u.choose(from).copied()
    }

    fn name(&mut self) -> Result<String> {
        Ok(match self.u.int_in_range(0..=3)? {
            0 => self.pick(KEYWORDS)?.to_owned(),
            1 => self.pick(ODD_NAMES)?.to_owned(),
            2 => self.u.arbitrary::<String>()?,
            _ => self
                .pick(&["a", "b", "c", "id", "name", "value"])?
                .to_owned(),
        })
    }

    fn root(&mut self) -> Result<Value> {
        match self.u.int_in_range(0..=9)? {
            0 => self.composition(0),
            1 => self.ref_cycle(0),
            2 => self.schema(0),
            _ => self.object(0),
        }
    }

    /// Any schema position.
    fn schema(&mut self, depth: usize) -> Result<Value> {
        if self.budget == 0 || depth > 12 {
            return self.leaf();
        }
        self.budget -= 1;
        match self.u.int_in_range(0..=13)? {
            0 | 1 => self.object(depth),
            2 => self.composition(depth),
            3 => self.nullable(depth),
            4 => self.ref_cycle(depth),
            5 | 6 => self.leaf(),
            7 => self.array(depth),
            8 => self.literals(depth),
            9 => self.huge_enum(),
            10 => self.chain(),
            11 => self.conditional(depth),
            12 => self.soup(depth),
            _ => self.not_an_object(),
        }
    }

    fn child(&mut self, depth: usize) -> Result<Value> {
        self.schema(depth + 1)
    }

    fn object(&mut self, depth: usize) -> Result<Value> {
        let mut m = Map::new();
        m.insert("type".into(), json!("object"));
        let mut props = Map::new();
        let mut names = Vec::new();
        for _ in 0..self.u.int_in_range(0..=5)? {
            let n = self.name()?;
            names.push(n.clone());
            let s = self.child(depth)?;
            props.insert(n, s);
        }
        m.insert("properties".into(), Value::Object(props));
        if self.u.arbitrary()? {
            let mut req: Vec<Value> = Vec::new();
            for n in &names {
                if self.u.arbitrary()? {
                    req.push(json!(n));
                }
            }
            if self.u.ratio(1, 4)? {
                req.push(json!("ghost"));
            }
            m.insert("required".into(), Value::Array(req));
        }
        match self.u.int_in_range(0..=4)? {
            0 => {
                m.insert("additionalProperties".into(), json!(false));
            }
            1 => {
                m.insert("additionalProperties".into(), json!(true));
            }
            2 => {
                let s = self.child(depth)?;
                m.insert("additionalProperties".into(), s);
            }
            _ => {}
        }
        if self.u.ratio(1, 4)? {
            let key = self.pick(&["patternProperties", "dependentSchemas", "$defs"])?;
            let mut inner = Map::new();
            let n = self.name()?;
            let s = self.child(depth)?;
            inner.insert(n, s);
            m.insert(key.into(), Value::Object(inner));
        }
        if self.u.ratio(1, 5)? {
            let s = self.child(depth)?;
            let key = self.pick(&["anyOf", "oneOf", "allOf"])?;
            let required = obj([("required", json!(names.first()))]);
            m.insert(key.into(), Value::Array(vec![s, required]));
        }
        self.extras(&mut m)?;
        Ok(Value::Object(m))
    }

    fn composition(&mut self, depth: usize) -> Result<Value> {
        let key = self.pick(&["anyOf", "oneOf", "allOf"])?;
        let mut arms = Vec::new();
        for _ in 0..self.u.int_in_range(0..=4)? {
            arms.push(self.child(depth)?);
        }
        let mut m = Map::new();
        if self.u.arbitrary()? {
            m.insert("type".into(), json!(self.pick(TYPES)?));
        }
        if self.u.ratio(1, 3)? {
            let n = self.name()?;
            let s = self.child(depth)?;
            let mut props = Map::new();
            props.insert(n, s);
            m.insert("properties".into(), Value::Object(props));
        }
        m.insert(key.into(), Value::Array(arms));
        Ok(Value::Object(m))
    }

    /// Every way a schema says "or null".
    fn nullable(&mut self, depth: usize) -> Result<Value> {
        let inner = self.child(depth)?;
        let t = self.pick(TYPES)?;
        Ok(match self.u.int_in_range(0..=8)? {
            0 => json!({"type": "null"}),
            1 => json!({"type": [t, "null"]}),
            2 => json!({"type": t, "nullable": true}),
            3 => obj([("anyOf", Value::Array(vec![inner, json!({"type": "null"})]))]),
            4 => obj([("oneOf", Value::Array(vec![json!({"type": "null"}), inner]))]),
            5 => json!({"enum": [null, "a"]}),
            6 => json!({"const": null}),
            7 => json!({"type": ["null"], "default": null}),
            _ => json!({"anyOf": [{"type": "null"}, {"type": "null"}], "nullable": false}),
        })
    }

    /// `$ref`s: to the root, to `$defs` entries referring to each other, to
    /// `definitions`, dangling, remote.
    fn ref_cycle(&mut self, depth: usize) -> Result<Value> {
        let target = self.pick(&[
            "#",
            "#/$defs/a",
            "#/definitions/a",
            "#/$defs/missing",
            "#/properties/a",
            "https://example.com/s.json",
            "#a",
            "",
        ])?;
        let extra = self.child(depth)?;
        Ok(obj([
            ("type", s("object")),
            (
                "properties",
                obj([("a", json!({"$ref": target})), ("b", extra)]),
            ),
            (
                "$defs",
                json!({"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}]}}),
            ),
            ("definitions", json!({"a": {"$ref": "#"}})),
        ]))
    }

    fn leaf(&mut self) -> Result<Value> {
        let t = self.pick(TYPES)?;
        let mut m = Map::new();
        m.insert("type".into(), json!(t));
        self.extras(&mut m)?;
        Ok(Value::Object(m))
    }

    /// Constraint keywords a scalar may carry.
    fn extras(&mut self, m: &mut Map<String, Value>) -> Result<()> {
        for _ in 0..self.u.int_in_range(0..=3)? {
            match self.u.int_in_range(0..=7)? {
                0 => m.insert("pattern".into(), json!(self.pick(PATTERNS)?)),
                1 => m.insert("format".into(), json!(self.pick(FORMATS)?)),
                2 => m.insert("minLength".into(), json!(self.u.int_in_range(0..=3)?)),
                3 => m.insert("maximum".into(), json!(self.u.arbitrary::<f32>()?)),
                4 => m.insert("description".into(), json!(self.u.arbitrary::<String>()?)),
                5 => m.insert("default".into(), self.literal(0)?),
                6 => m.insert("title".into(), json!(self.name()?)),
                _ => m.insert("minItems".into(), json!(self.u.int_in_range(0..=2)?)),
            };
        }
        Ok(())
    }

    fn array(&mut self, depth: usize) -> Result<Value> {
        let item = self.child(depth)?;
        Ok(match self.u.int_in_range(0..=4)? {
            0 => obj([("type", s("array")), ("items", item)]),
            1 => obj([
                ("type", s("array")),
                ("items", Value::Array(vec![item, json!({"type": "string"})])),
            ]),
            2 => obj([
                ("type", s("array")),
                ("prefixItems", Value::Array(vec![item])),
                ("items", Value::Bool(false)),
            ]),
            3 => obj([
                ("type", s("array")),
                ("contains", item),
                ("minContains", json!(1)),
                ("uniqueItems", Value::Bool(true)),
            ]),
            _ => obj([
                ("type", json!(["array", "null"])),
                (
                    "items",
                    obj([("anyOf", Value::Array(vec![item, json!({"type": "null"})]))]),
                ),
            ]),
        })
    }

    /// Literals (`enum`, `const`, `default`, `examples`) holding values that
    /// look like schemas: they are data and must stay untouched.
    fn literals(&mut self, depth: usize) -> Result<Value> {
        let fake = self.child(depth)?;
        let key = self.pick(&["enum", "const", "default", "examples"])?;
        let value = if key == "enum" || key == "examples" {
            Value::Array(vec![
                fake,
                json!({"type": "object", "properties": {"x": {"pattern": "(?=a)"}}}),
            ])
        } else {
            fake
        };
        Ok(obj([("type", s("object")), (key, value)]))
    }

    fn huge_enum(&mut self) -> Result<Value> {
        self.budget = self.budget.saturating_sub(100);
        let n = self.u.int_in_range(0..=self.limits.enum_len)?;
        let values: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
        Ok(json!({"type": "string", "enum": values}))
    }

    /// One keyword nested many times: past the walks' depth limit.
    fn chain(&mut self) -> Result<Value> {
        self.budget = self.budget.saturating_sub(50);
        let n = self.u.int_in_range(1..=self.limits.chain)?;
        let how = self.u.int_in_range(0..=3)?;
        let mut v = json!({"type": "string"});
        for _ in 0..n {
            v = match how {
                0 => obj([("not", v)]),
                1 => obj([("type", s("array")), ("items", v)]),
                2 => obj([("anyOf", Value::Array(vec![v]))]),
                _ => obj([("type", s("object")), ("properties", obj([("a", v)]))]),
            };
        }
        Ok(v)
    }

    fn conditional(&mut self, depth: usize) -> Result<Value> {
        let a = self.child(depth)?;
        let b = self.child(depth)?;
        Ok(match self.u.int_in_range(0..=4)? {
            0 => obj([("if", a), ("then", b), ("else", json!({"type": "null"}))]),
            1 => obj([("type", s("object")), ("not", a)]),
            2 => obj([
                ("type", s("object")),
                ("properties", obj([("a", a), ("b", b)])),
                ("dependentRequired", json!({"a": ["b"]})),
            ]),
            3 => obj([
                ("type", s("object")),
                ("propertyNames", json!({"pattern": "^[a-z]+$"})),
                ("patternProperties", obj([("^x-", a)])),
            ]),
            _ => obj([
                ("type", s("object")),
                ("dependencies", obj([("a", b)])),
                ("unevaluatedProperties", Value::Bool(false)),
            ]),
        })
    }

    /// Random keywords with random values.
    fn soup(&mut self, depth: usize) -> Result<Value> {
        let mut m = Map::new();
        for _ in 0..self.u.int_in_range(1..=4)? {
            let k = self.pick(KEYWORDS)?;
            let v = if self.u.arbitrary()? {
                self.child(depth)?
            } else {
                self.literal(0)?
            };
            m.insert(k.into(), v);
        }
        Ok(Value::Object(m))
    }

    fn not_an_object(&mut self) -> Result<Value> {
        Ok(match self.u.int_in_range(0..=5)? {
            0 => json!(true),
            1 => json!(false),
            2 => Value::Null,
            3 => json!([{"type": "string"}]),
            4 => json!(self.u.arbitrary::<i64>()?),
            _ => json!(self.pick(TYPES)?),
        })
    }

    /// An arbitrary JSON value (for literals and keyword values).
    fn literal(&mut self, depth: usize) -> Result<Value> {
        if depth > 3 {
            return Ok(Value::Null);
        }
        Ok(match self.u.int_in_range(0..=6)? {
            0 => Value::Null,
            1 => json!(self.u.arbitrary::<bool>()?),
            2 => json!(self.u.arbitrary::<f64>()?),
            3 => json!(self.u.arbitrary::<String>()?),
            4 => json!(self.name()?),
            5 => Value::Array(vec![self.literal(depth + 1)?, self.literal(depth + 1)?]),
            _ => {
                let k = self.pick(KEYWORDS)?;
                obj([(k, self.literal(depth + 1)?)])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::*;

    fn text(t: &Tool) -> String {
        serde_json::to_string(t).unwrap()
    }

    /// `run --fuzz` adds only tools a catalog could carry: the generator's
    /// 200-level chains (which the fuzz targets keep) are retried away.
    #[test]
    fn seeded_tools_nest_no_deeper_than_a_catalog_may() {
        let deep = (0..300)
            .filter(|i| crate::schema::visit(&seeded(1, *i).input_schema, &mut |_, _| {}).is_err())
            .count();
        assert_eq!(deep, 0);
        let raw_deep = (0..300u64)
            .filter(|i| {
                let key = SplitMix64(SplitMix64(1).next() ^ i).next();
                let mut stream = SplitMix64(key);
                let mut bytes = Vec::with_capacity(SEEDED_BYTES);
                while bytes.len() < SEEDED_BYTES {
                    bytes.extend_from_slice(&stream.next().to_le_bytes());
                }
                tool(&mut Unstructured::new(&bytes))
                    .is_ok_and(|t| crate::schema::visit(&t.input_schema, &mut |_, _| {}).is_err())
            })
            .count();
        assert!(raw_deep > 0, "the generator itself still makes deep chains");
    }

    #[test]
    fn limits_follow_the_input_length_up_to_the_full_sizes() {
        assert_eq!(
            Limits::for_len(10),
            Limits {
                nodes: 2,
                enum_len: 10,
                chain: 10
            }
        );
        assert_eq!(Limits::for_len(0).chain, 1);
        assert_eq!(Limits::for_len(1 << 20), Limits::SEEDED);
    }

    /// The fuzz targets' sizes follow their input: 64 bytes never make an
    /// enum past 64 members or a chain past the walks' depth limit, where
    /// the full sizes (the same bytes, padded to 512) make both.
    #[test]
    fn short_inputs_generate_small_schemas() {
        fn longest_enum(v: &Value) -> usize {
            match v {
                Value::Object(m) => m
                    .iter()
                    .map(|(k, v)| match (k.as_str(), v) {
                        ("enum", Value::Array(a)) => a.len().max(longest_enum(v)),
                        _ => longest_enum(v),
                    })
                    .max()
                    .unwrap_or(0),
                Value::Array(a) => a.iter().map(longest_enum).max().unwrap_or(0),
                _ => 0,
            }
        }
        let (mut short_enum, mut short_deep) = (0, 0);
        let (mut full_enum, mut full_deep) = (0, 0);
        for i in 0..2000u64 {
            let mut stream = SplitMix64(i);
            let mut bytes = Vec::with_capacity(SEEDED_BYTES);
            while bytes.len() < SEEDED_BYTES {
                bytes.extend_from_slice(&stream.next().to_le_bytes());
            }
            let deep = |t: &Tool| crate::schema::visit(&t.input_schema, &mut |_, _| {}).is_err();
            if let Ok(t) = tool_with(&mut Unstructured::new(&bytes[..64]), Limits::for_len(64)) {
                short_enum = short_enum.max(longest_enum(&t.input_schema));
                short_deep += usize::from(deep(&t));
            }
            if let Ok(t) = tool(&mut Unstructured::new(&bytes)) {
                full_enum = full_enum.max(longest_enum(&t.input_schema));
                full_deep += usize::from(deep(&t));
            }
        }
        assert!(short_enum <= 64, "{short_enum}");
        assert_eq!(short_deep, 0);
        assert!(full_enum > 64, "{full_enum}");
        assert!(full_deep > 0);
    }

    #[test]
    fn splitmix64_gives_the_published_stream() {
        let mut s = SplitMix64(0);
        assert_eq!(
            [s.next(), s.next(), s.next()],
            [
                0xE220_A839_7B1D_CDAF,
                0x6E78_9E6A_A1B9_65F4,
                0x06C4_5D18_8009_454F
            ]
        );
    }

    #[test]
    fn seeded_is_deterministic_for_a_seed_and_an_index() {
        for i in 0..16 {
            assert_eq!(text(&seeded(1, i)), text(&seeded(1, i)), "fuzz/1#{i}");
        }
    }

    #[test]
    fn seeded_tools_differ_by_index_and_by_seed() {
        let one: BTreeSet<String> = (0..16).map(|i| text(&seeded(1, i))).collect();
        let two: BTreeSet<String> = (0..16).map(|i| text(&seeded(2, i))).collect();
        assert_eq!(one.len(), 16, "16 indices, 16 different tools");
        assert_eq!(two.len(), 16);
        assert!(one.is_disjoint(&two), "seeds 1 and 2 share a tool");
    }

    #[test]
    fn the_first_seeded_tools_of_seed_1_are_pinned() {
        // A change here means seed 1 names other tools than before (the
        // generator or the seeding changed): update the pin on purpose.
        let all: Vec<String> = (0..8).map(|i| text(&seeded(1, i))).collect();
        assert_eq!(
            crate::hash::sha256_hex(&all.join("\n")),
            "f872b1377a30943019fce323b1877a3c08ffeb79bfb055536f13530679fd97c6"
        );
    }

    #[test]
    fn a_fuzz_spec_lists_its_tools_in_index_order() {
        let spec = FuzzSpec { count: 3, seed: 7 };
        let tools: Vec<String> = spec.tools().map(|t| text(&t)).collect();
        let direct: Vec<String> = (0..3).map(|i| text(&seeded(7, i))).collect();
        assert_eq!(tools, direct);
        assert_eq!(spec.case_id(2), "fuzz/7#2");
    }

    #[test]
    fn a_fuzz_spec_names_the_command_that_plans_it_again() {
        let spec = FuzzSpec {
            count: 2000,
            seed: 20_261_201,
        };
        assert_eq!(
            spec.command("v0", "v1"),
            "wireshape run --fuzz 2000 --seed 20261201"
        );
        assert_eq!(
            spec.command("v0", "verbatim"),
            "wireshape diff --old v0 --new verbatim --fuzz 2000 --seed 20261201"
        );
    }
}
