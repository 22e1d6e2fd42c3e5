//! The one table of pass lists: every lane's v0 and v1 passes, in order.
//!
//! A pipeline profile (`pipeline::Profile`) reads its lists here and
//! nowhere else; a pass module defines passes, never a list. One arm per
//! lane family, so a reader sees at a glance what each lane runs (the
//! model is jsonschema's keyword dispatch table). `verbatim` runs nothing.

use super::names::{NameSpec, SanitizePropertyKeys, SanitizeToolName};
use super::{
    Pass, anthropic, bedrock, compat, deepseek, gate, gemini, lookaround, normalize::Normalize,
    openai, responses::ResponsesRootFlatten, strict, subset::StrictSubset,
};
use crate::lane::Lane;

fn normalize() -> Box<dyn Pass> {
    Box::new(Normalize::default())
}

/// The v0 (previous release line) passes for `lane`.
pub(crate) fn v0(lane: Lane) -> Vec<Box<dyn Pass>> {
    match lane {
        Lane::AnthropicMessages | Lane::AnthropicCompatible | Lane::OpenaiResponses => {
            vec![normalize(), Box::new(ResponsesRootFlatten)]
        }
        Lane::DeepseekStrict => vec![normalize(), Box::new(deepseek::DeepseekStrictV0)],
        Lane::OpenaiChat
        | Lane::OpenaiStrict
        | Lane::DeepseekChat
        | Lane::GeminiOpenapi
        | Lane::GeminiJsonschema
        | Lane::BedrockConverse
        | Lane::Moonshot
        | Lane::Mistral
        | Lane::Groq
        | Lane::Xai
        | Lane::Cerebras
        | Lane::Ollama => Vec::new(),
    }
}

/// The v1 (current line) passes for `lane`.
pub(crate) fn v1(lane: Lane) -> Vec<Box<dyn Pass>> {
    match lane {
        // Third-party Messages endpoints: verbatim.
        Lane::AnthropicCompatible => Vec::new(),
        Lane::AnthropicMessages => anthropic_messages(),
        Lane::OpenaiChat | Lane::OpenaiStrict => openai_chat(lane),
        Lane::OpenaiResponses => openai_responses(),
        Lane::Xai => vec![
            Box::new(openai::StripKeywords::xai()),
            Box::new(openai::XaiExactConstructs::default()),
        ],
        Lane::Groq => vec![
            Box::new(openai::NonSchemaRoot::new("groq-metaschema-validation")),
            Box::new(openai::RepairKeywordTypes::new(
                "groq-metaschema-validation",
            )),
            Box::new(openai::UpgradeDraftKeywords::default()),
            Box::new(openai::ReplaceNonSchemas::new("groq-metaschema-validation")),
            Box::new(openai::RootPropertiesFloor::groq()),
            Box::new(openai::MetaschemaGate {
                rule: "groq-metaschema-validation",
                enabled: true,
            }),
        ],
        Lane::Cerebras => vec![
            Box::new(openai::StripKeywords::cerebras()),
            Box::new(strict::StrictConditionals::new(
                "cerebras-additionalproperties-false-required",
            )),
            Box::new(strict::CloseObjects {
                rule: "cerebras-additionalproperties-false-required",
                ..strict::CloseObjects::default()
            }),
        ],
        Lane::DeepseekChat => vec![
            Box::new(compat::WrapBarePropertyMap::new(
                "deepseek-parameters-must-be-object",
                true,
            )),
            Box::new(compat::ParametersObjectFloor::new(
                "deepseek-parameters-must-be-object",
                true,
            )),
            Box::new(compat::TypeAnyOfMembers::default()),
        ],
        Lane::DeepseekStrict => deepseek_strict(),
        Lane::Moonshot => vec![
            Box::new(SanitizeToolName {
                spec: compat::MOONSHOT_FUNCTION_NAME,
                rule: "moonshot-function-name-pattern",
            }),
            Box::new(compat::WrapBarePropertyMap::new(
                "moonshot-parameters-type-object",
                true,
            )),
            Box::new(compat::ParametersObjectFloor::new(
                "moonshot-parameters-type-object",
                true,
            )),
            // References into $defs before anything resolves one.
            Box::new(compat::RefsIntoDefs::default()),
            Box::new(compat::TypeIntoAnyOf::default()),
            // After the moves into $defs and the root anyOf merge, so it
            // sees every properties map where it ships.
            Box::new(compat::PropertySchemasToObjects::default()),
            // Before the typing: the `items` an `additionalItems` schema
            // becomes is typed like any other.
            Box::new(compat::TupleItemsToPrefixItems::default()),
            // Before the $ref siblings are judged: a target it types may
            // then conflict with a `type` beside the reference.
            Box::new(compat::TypeUntypedSubschemas::default()),
            // Before the conflicts are judged: a target this moves is read
            // by their rounds as it ships.
            Box::new(compat::RefTypeToAllOf::default()),
            Box::new(compat::RefSiblingsToAllOf::default()),
        ],
        Lane::Mistral => vec![
            Box::new(compat::WrapBarePropertyMap::new(
                "mistral-parameters-not-object-schema",
                false,
            )),
            Box::new(compat::ParametersObjectFloor::new(
                "mistral-parameters-not-object-schema",
                false,
            )),
            Box::new(compat::Draft4ExclusiveBounds::default()),
            // Keyword values of the wrong JSON type are repaired (as on the
            // OpenAI and Anthropic wires) before the gate, which then fails
            // closed only on what no repair reaches.
            Box::new(openai::RepairKeywordTypes::new(
                "mistral-parameters-not-object-schema",
            )),
            Box::new(openai::ReplaceNonSchemas::new(
                "mistral-parameters-not-object-schema",
            )),
            Box::new(gate::KeywordTypeGate::new(
                "mistral-parameters-not-object-schema",
            )),
        ],
        Lane::Ollama => vec![
            Box::new(compat::OllamaPropertiesMap::default()),
            Box::new(compat::OllamaBooleanProperties::default()),
            Box::new(compat::OllamaTypeNameProperties::default()),
        ],
        Lane::GeminiOpenapi => gemini_openapi(),
        Lane::GeminiJsonschema => vec![
            gemini_function_name(),
            Box::new(gemini::MaxItemsBudget::default()),
            Box::new(gemini::ConstraintNote::default()),
        ],
        Lane::BedrockConverse => vec![
            Box::new(bedrock::JsonDocument::default()),
            Box::new(bedrock::PropertiesObject),
            Box::new(bedrock::RootTypeObject::default()),
            Box::new(bedrock::RootDefs::default()),
            Box::new(SanitizeToolName {
                spec: bedrock::TOOL_NAME,
                rule: "bedrock-converse-tool-name-pattern",
            }),
            Box::new(bedrock::OmitEmptyDescription),
        ],
    }
}

/// `anthropic-messages`: repair draft 2020-12 errors first (the later
/// passes then walk a valid schema), the root narrowing and floor, the
/// names, then the strict subset for `strict: true` tools.
fn anthropic_messages() -> Vec<Box<dyn Pass>> {
    vec![
        // Keyword values of the wrong JSON type first (the same repairs as
        // on the OpenAI wires), so the draft 2020-12 repair fails closed
        // only on what no rewrite can keep.
        Box::new(openai::RepairKeywordTypes::new(
            "anthropic-json-schema-invalid-2020-12",
        )),
        Box::new(openai::ReplaceNonSchemas::keeping_type_names(
            "anthropic-json-schema-invalid-2020-12",
        )),
        Box::new(anthropic::RepairDraft202012::default()),
        normalize(),
        Box::new(openai::StrictInlineRefSiblings::ANTHROPIC_ROOT),
        Box::new(anthropic::NarrowRootComposition::default()),
        Box::new(anthropic::ObjectRootFloor::default()),
        Box::new(SanitizeToolName {
            spec: anthropic::TOOL_NAME,
            rule: "anthropic-tool-name-pattern",
        }),
        Box::new(SanitizePropertyKeys {
            spec: anthropic::PROPERTY_KEY,
            rule: "anthropic-property-key-pattern",
        }),
        Box::new(anthropic::StrictFallback::default()),
        Box::new(anthropic::StrictMinItems::default()),
        Box::new(anthropic::StrictUnsupportedFormats::default()),
        Box::new(anthropic::StrictBounds::default()),
        Box::new(anthropic::StrictArrayBounds::default()),
        Box::new(anthropic::StrictCloseObjects::default()),
    ]
}

/// `openai-chat` and `openai-strict` (which also strips defaults).
fn openai_chat(lane: Lane) -> Vec<Box<dyn Pass>> {
    let mut passes: Vec<Box<dyn Pass>> = vec![
        Box::new(SanitizeToolName {
            spec: NameSpec::word_or_dash(64),
            rule: "openai-tool-name-pattern",
        }),
        Box::new(openai::NonSchemaRoot::new("openai-subschema-not-object")),
        Box::new(openai::StrictInlineRefSiblings::ROOT),
        Box::new(anthropic::NarrowRootComposition {
            replace_non_object_root: false,
            ..anthropic::NarrowRootComposition::default()
        }),
        Box::new(openai::StripKeywords::root_assertions()),
        Box::new(openai::RepairKeywordTypes::new("openai-required-null")),
        Box::new(openai::ReplaceNonSchemas::new(
            "openai-subschema-not-object",
        )),
        Box::new(openai::ArrayItemsFloor::default()),
        Box::new(openai::RootPropertiesFloor::openai()),
        Box::new(openai::StrictFallback::default()),
        Box::new(StrictSubset::default()),
        Box::new(openai::StrictTypelessFallback::default()),
        Box::new(openai::StrictInlineRefSiblings::default()),
    ];
    if lane == Lane::OpenaiStrict {
        passes.push(Box::new(openai::StrictStripDefaults::default()));
    }
    passes.push(Box::new(strict::CloseObjects::default()));
    passes.push(Box::new(strict::RequireAll::default()));
    passes
}

fn openai_responses() -> Vec<Box<dyn Pass>> {
    vec![
        Box::new(SanitizeToolName {
            spec: NameSpec::word_or_dash(64),
            rule: "openai-tool-name-pattern",
        }),
        // Repairs first, so normalize's collapses see repaired
        // keywords (a branch left `{}` by a repair is collapsed in
        // the same run, not the next: idempotence).
        Box::new(openai::RepairKeywordTypes::new("openai-required-null")),
        Box::new(openai::ReplaceNonSchemas::new(
            "openai-subschema-not-object",
        )),
        // A null branch whose only other keyword is a lookaround
        // `pattern` collapses here, not after the strip below left it
        // `{"type":"null"}` (idempotence).
        Box::new(Normalize::ignoring_other_types_on_null()),
        Box::new(openai::StrictInlineRefSiblings::ROOT),
        Box::new(ResponsesRootFlatten::v1()),
        Box::new(openai::StripKeywords::root_assertions_const()),
        Box::new(lookaround::StripLookaroundPatterns::default()),
        Box::new(openai::ArrayItemsFloor::default()),
        Box::new(openai::StrictFallback::default()),
        Box::new(StrictSubset::default()),
        Box::new(openai::StrictTypelessFallback::default()),
        Box::new(openai::StrictInlineRefSiblings::default()),
        Box::new(strict::StrictCloseObjects),
        Box::new(strict::StrictRequireAll),
    ]
}

fn deepseek_strict() -> Vec<Box<dyn Pass>> {
    vec![
        normalize(),
        Box::new(deepseek::DeepseekStrictUnusable),
        Box::new(deepseek::DeepseekPreGate),
        Box::new(compat::ParametersObjectFloor::new(
            "deepseek-parameters-must-be-object",
            true,
        )),
        Box::new(deepseek::DeepseekRemoveOptionals::default()),
        Box::new(deepseek::DeepseekConstToEnum),
        Box::new(deepseek::DeepseekWideningStrips::default()),
        Box::new(deepseek::DeepseekCloseObjects),
        Box::new(deepseek::DeepseekPostGate::default()),
        Box::new(deepseek::DeepseekMarkStrict),
    ]
}

fn gemini_function_name() -> Box<dyn Pass> {
    Box::new(SanitizeToolName {
        spec: gemini::FUNCTION_NAME,
        rule: "gemini-function-name-pattern",
    })
}

fn gemini_openapi() -> Vec<Box<dyn Pass>> {
    vec![
        gemini_function_name(),
        normalize(),
        Box::new(gemini::InlineRefs::default()),
        Box::new(gemini::RootObject::default()),
        Box::new(SanitizePropertyKeys {
            spec: gemini::PARAMETER_NAME,
            rule: "gemini-parameter-name-pattern",
        }),
        Box::new(gemini::SchemaValues::default()),
        Box::new(gemini::TypeList::default()),
        Box::new(gemini::ConstToEnum::default()),
        Box::new(gemini::ExclusiveBounds::default()),
        Box::new(gemini::FoldCombinators::default()),
        Box::new(gemini::StripFields::property_names()),
        Box::new(gemini::StripFields::non_proto()),
        Box::new(gemini::AnyOfOnly::default()),
        Box::new(gemini::TypeRequired::default()),
        Box::new(gemini::EnumStrings::default()),
        Box::new(gemini::StringFormat::default()),
        Box::new(gemini::ArrayItems::default()),
        Box::new(gemini::EmptyObjects::default()),
        // Again: `required` entries left dangling by inlining, unions the
        // prune left with one branch or a null branch (idempotence).
        normalize(),
        // Again: fields the passes after the first run put beside an
        // `anyOf` (a type, a nullable flag, a collapsed branch's keys).
        Box::new(gemini::AnyOfOnly::default()),
        Box::new(gemini::MaxItemsBudget::default()),
        Box::new(gemini::ConstraintNote::default()),
    ]
}
