//! The structured input generator: bytes → a [`Tool`] biased toward what
//! breaks shapers. Shared by the fuzz targets (`fuzz/fuzz_targets/`) and the
//! proptest properties (`harness/tests/props.rs` includes this file), so both
//! explore the same space.
//!
//! Bytes that parse as JSON are the tool's schema as they are (the raw-bytes
//! path the seeds and the dictionary feed); any other bytes drive
//! [`arbitrary::Unstructured`] through a menu of hostile constructs:
//! compositions at the root and nested, properties named like keywords, name
//! maps, literals shaped like schemas, every null encoding, `$ref` cycles,
//! deep nesting, huge enums, odd unicode names.

use arbitrary::{Result, Unstructured};
use serde_json::{Map, Value, json};
use wireshape::Tool;
use wireshape::testing::properties;

/// Every fuzz target, by name (`fuzz/fuzz_targets/<name>.rs`).
pub const TARGETS: &[&str] = &[
    "shape_no_panic",
    "shape_idempotent",
    "shape_conforms",
    "shape_never_silent",
    "catalog_load_no_panic",
    "oracle_no_panic",
];

/// Run the named target's property on its input bytes: what the fuzz
/// target does, and what `cargo test` replays for a committed regression.
/// `None` for an unknown target name.
pub fn run_target(target: &str, data: &[u8]) -> Option<std::result::Result<(), String>> {
    let on_tool = |property: fn(&Tool) -> std::result::Result<(), String>| {
        tool_from_bytes(data).map_or(Ok(()), |t| property(&t))
    };
    Some(match target {
        "shape_no_panic" => on_tool(properties::shape_no_panic),
        "shape_idempotent" => on_tool(properties::shape_idempotent),
        "shape_conforms" => on_tool(properties::shape_conforms),
        "shape_never_silent" => on_tool(properties::shape_never_silent),
        "catalog_load_no_panic" => properties::catalog_load_no_panic(data),
        "oracle_no_panic" => oracle(data),
        _ => return None,
    })
}

/// `oracle_no_panic`'s input: JSON bytes are a request (`{"tools": [..],
/// "tool_choice": ..}`) or a bare tools array; other bytes are a generated
/// tool rendered on every wire.
fn oracle(data: &[u8]) -> std::result::Result<(), String> {
    match serde_json::from_slice::<Value>(data) {
        Ok(Value::Array(tools)) => properties::oracle_no_panic(&tools, &Value::Null),
        Ok(request) => {
            let tools = match request.get("tools") {
                Some(Value::Array(t)) => t.clone(),
                Some(other) => vec![other.clone()],
                None => vec![request.clone()],
            };
            properties::oracle_no_panic(&tools, &request)
        }
        Err(_) => tool(&mut Unstructured::new(data))
            .map_or(Ok(()), |t| properties::oracle_no_panic_on_tool(&t)),
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
/// generator.
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
    tool(&mut Unstructured::new(data))
}

/// One generated tool: a name, maybe a description and a strict flag, and a
/// schema that is usually an object at the root.
pub fn tool(u: &mut Unstructured<'_>) -> Result<Tool> {
    let mut g = Gen { u, budget: 400 };
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
            m.insert(key.into(), json!([s, {"required": names.first()}]));
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
            m.insert("properties".into(), json!({ n: s }));
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
            3 => json!({"anyOf": [inner, {"type": "null"}]}),
            4 => json!({"oneOf": [{"type": "null"}, inner]}),
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
        Ok(json!({
            "type": "object",
            "properties": {"a": {"$ref": target}, "b": extra},
            "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}, {"type": "null"}]}},
            "definitions": {"a": {"$ref": "#"}}
        }))
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
            0 => json!({"type": "array", "items": item}),
            1 => json!({"type": "array", "items": [item, {"type": "string"}]}),
            2 => json!({"type": "array", "prefixItems": [item], "items": false}),
            3 => json!({"type": "array", "contains": item, "minContains": 1, "uniqueItems": true}),
            _ => json!({"type": ["array", "null"], "items": {"anyOf": [item, {"type": "null"}]}}),
        })
    }

    /// Literals (`enum`, `const`, `default`, `examples`) holding values that
    /// look like schemas: they are data and must stay untouched.
    fn literals(&mut self, depth: usize) -> Result<Value> {
        let fake = self.child(depth)?;
        let key = self.pick(&["enum", "const", "default", "examples"])?;
        let value = if key == "enum" || key == "examples" {
            json!([fake, {"type": "object", "properties": {"x": {"pattern": "(?=a)"}}}])
        } else {
            fake
        };
        Ok(json!({"type": "object", key: value}))
    }

    fn huge_enum(&mut self) -> Result<Value> {
        self.budget = self.budget.saturating_sub(100);
        let n = self.u.int_in_range(0..=3000)?;
        let values: Vec<Value> = (0..n).map(|i| json!(format!("v{i}"))).collect();
        Ok(json!({"type": "string", "enum": values}))
    }

    /// One keyword nested many times: past the walks' depth limit.
    fn chain(&mut self) -> Result<Value> {
        self.budget = self.budget.saturating_sub(50);
        let n = self.u.int_in_range(1..=MAX_CHAIN)?;
        let how = self.u.int_in_range(0..=3)?;
        let mut v = json!({"type": "string"});
        for _ in 0..n {
            v = match how {
                0 => json!({ "not": v }),
                1 => json!({"type": "array", "items": v}),
                2 => json!({"anyOf": [v]}),
                _ => json!({"type": "object", "properties": {"a": v}}),
            };
        }
        Ok(v)
    }

    fn conditional(&mut self, depth: usize) -> Result<Value> {
        let a = self.child(depth)?;
        let b = self.child(depth)?;
        Ok(match self.u.int_in_range(0..=4)? {
            0 => json!({"if": a, "then": b, "else": {"type": "null"}}),
            1 => json!({"type": "object", "not": a}),
            2 => {
                json!({"type": "object", "properties": {"a": a, "b": b}, "dependentRequired": {"a": ["b"]}})
            }
            3 => {
                json!({"type": "object", "propertyNames": {"pattern": "^[a-z]+$"}, "patternProperties": {"^x-": a}})
            }
            _ => {
                json!({"type": "object", "dependencies": {"a": b}, "unevaluatedProperties": false})
            }
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
                json!({ k: self.literal(depth + 1)? })
            }
        })
    }
}
