//! The Algoku app spec (ARC-56), committed under smart_contracts/artifacts/ and
//! embedded in the binary: methods and their selectors, the programs, and the
//! pc → error message map that explains a failed assert.

use crate::error::ClientError;
use base64::Engine;
use serde::Deserialize;
use sha2::{Digest, Sha512_256};

/// The committed ARC-56 spec of the Curta contract.
pub const CURTA_ARC56: &str = include_str!("../assets/Curta.arc56.json");

/// The committed ARC-56 spec of the game contract.
pub const GAME_ARC56: &str = include_str!("../assets/Game.arc56.json");

/// The committed ARC-56 spec of the Algoku contract.
pub const ALGOKU_ARC56: &str = include_str!("../assets/Algoku.arc56.json");

#[derive(Deserialize)]
struct Arc56 {
    name: String,
    methods: Vec<Arc56Method>,
    #[serde(rename = "byteCode")]
    byte_code: Option<ByteCode>,
    #[serde(rename = "sourceInfo")]
    source_info: Option<SourceInfos>,
}

#[derive(Deserialize)]
struct Arc56Method {
    name: String,
    args: Vec<Arc56Arg>,
    returns: Arc56Return,
}

#[derive(Deserialize)]
struct Arc56Arg {
    #[serde(rename = "type")]
    ty: String,
}

#[derive(Deserialize)]
struct Arc56Return {
    #[serde(rename = "type")]
    ty: String,
}

#[derive(Deserialize)]
struct ByteCode {
    approval: String,
    clear: String,
}

#[derive(Deserialize)]
struct SourceInfos {
    approval: ProgramSourceInfo,
}

#[derive(Deserialize)]
struct ProgramSourceInfo {
    #[serde(rename = "sourceInfo")]
    source_info: Vec<SourceInfo>,
}

#[derive(Deserialize)]
struct SourceInfo {
    pc: Vec<u64>,
    #[serde(rename = "errorMessage")]
    error_message: Option<String>,
}

/// One ABI method: its signature and 4-byte selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Method {
    /// The method name.
    pub name: String,
    /// The ARC-4 signature, e.g. `is_valid_solution(byte[])bool`.
    pub signature: String,
    /// The 4-byte ARC-4 selector.
    pub selector: [u8; 4],
}

/// What the client needs from the app spec.
#[derive(Clone, Debug)]
pub struct AppSpec {
    /// The contract name.
    pub name: String,
    /// Its ABI methods.
    pub methods: Vec<Method>,
    /// The compiled approval program.
    pub approval: Vec<u8>,
    /// The compiled clear-state program.
    pub clear: Vec<u8>,
    errors: Vec<(u64, String)>,
}

/// ARC-4 selector: the first 4 bytes of SHA-512/256 of the method signature.
pub fn selector(signature: &str) -> [u8; 4] {
    let digest = Sha512_256::digest(signature.as_bytes());
    [digest[0], digest[1], digest[2], digest[3]]
}

impl AppSpec {
    /// The embedded Algoku spec.
    pub fn algoku() -> Result<AppSpec, ClientError> {
        AppSpec::parse(ALGOKU_ARC56)
    }

    /// The embedded game spec.
    pub fn game() -> Result<AppSpec, ClientError> {
        AppSpec::parse(GAME_ARC56)
    }

    /// The embedded Curta spec.
    pub fn curta() -> Result<AppSpec, ClientError> {
        AppSpec::parse(CURTA_ARC56)
    }

    /// Whether `program` (app `app_id`'s approval program as the chain has it,
    /// `None` when the app does not exist) is this spec's artifact, byte for
    /// byte: any other app could answer anything (a program that logs
    /// `151f7c7580` says `true`).
    pub fn check_program(&self, app_id: u64, program: Option<Vec<u8>>) -> Result<(), ClientError> {
        use sha2::{Digest, Sha256};
        match program {
            None => Err(ClientError::Config(format!(
                "app {app_id} does not exist on this chain"
            ))),
            Some(program) if program != self.approval => Err(ClientError::Config(format!(
                "app {app_id} is not {name}: its approval program (sha256 {}) differs from \
                 smart_contracts/artifacts/{dir}/{name}.approval.bin (sha256 {})",
                hex::encode(&Sha256::digest(&program)[..8]),
                hex::encode(&Sha256::digest(&self.approval)[..8]),
                name = self.name,
                dir = self.name.to_lowercase(),
            ))),
            Some(_) => Ok(()),
        }
    }

    /// Parse an ARC-56 JSON document.
    pub fn parse(json: &str) -> Result<AppSpec, ClientError> {
        let spec: Arc56 = serde_json::from_str(json)
            .map_err(|e| ClientError::Spec(format!("not ARC-56 JSON: {e}")))?;
        let methods = spec
            .methods
            .iter()
            .map(|m| {
                let args: Vec<&str> = m.args.iter().map(|a| a.ty.as_str()).collect();
                let signature = format!("{}({}){}", m.name, args.join(","), m.returns.ty);
                Method {
                    name: m.name.clone(),
                    selector: selector(&signature),
                    signature,
                }
            })
            .collect();
        let code = spec.byte_code.ok_or_else(|| {
            ClientError::Spec("the spec has no byteCode (compile with bytecode output)".into())
        })?;
        let b64 = base64::engine::general_purpose::STANDARD;
        let approval = b64
            .decode(code.approval.as_bytes())
            .map_err(|e| ClientError::Spec(format!("byteCode.approval is not base64: {e}")))?;
        let clear = b64
            .decode(code.clear.as_bytes())
            .map_err(|e| ClientError::Spec(format!("byteCode.clear is not base64: {e}")))?;
        let errors = spec
            .source_info
            .map(|s| {
                s.approval
                    .source_info
                    .into_iter()
                    .filter_map(|i| i.error_message.map(|m| (i.pc, m)))
                    .flat_map(|(pcs, m)| pcs.into_iter().map(move |pc| (pc, m.clone())))
                    .collect()
            })
            .unwrap_or_default();
        Ok(AppSpec {
            name: spec.name,
            methods,
            approval,
            clear,
            errors,
        })
    }

    /// The method called `name`.
    pub fn method(&self, name: &str) -> Result<&Method, ClientError> {
        self.methods
            .iter()
            .find(|m| m.name == name)
            .ok_or_else(|| ClientError::Spec(format!("{} has no method `{name}`", self.name)))
    }

    /// The contract's own message for an assert failing at `pc`, if it has one.
    pub fn error_message(&self, pc: u64) -> Option<&str> {
        self.errors
            .iter()
            .find(|(p, _)| *p == pc)
            .map(|(_, m)| m.as_str())
    }

    /// Extra program pages the programs need (2048 bytes each beyond the first).
    pub fn extra_pages(&self) -> u32 {
        let total = self.approval.len() + self.clear.len();
        (total.saturating_sub(1) / 2048) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selectors_come_from_the_spec() {
        let spec = AppSpec::algoku().unwrap();
        let m = spec.method("is_valid_solution").unwrap();
        assert_eq!(m.signature, "is_valid_solution(byte[])bool");
        assert_eq!(hex::encode(m.selector), "2567cd67");
        assert_eq!(
            hex::encode(spec.method("opup").unwrap().selector),
            "4c6bea72"
        );
        assert!(spec.method("nope").is_err());
    }

    #[test]
    fn programs_match_the_committed_bytecode() {
        let spec = AppSpec::algoku().unwrap();
        let approval =
            include_bytes!("../../../smart_contracts/artifacts/algoku/Algoku.approval.bin");
        let clear = include_bytes!("../../../smart_contracts/artifacts/algoku/Algoku.clear.bin");
        assert_eq!(spec.approval, approval);
        assert_eq!(spec.clear, clear);
        // The one-call methods' constant masks make the program 3 pages past the first.
        assert_eq!(
            spec.extra_pages() as usize,
            (approval.len() + clear.len() - 1) / 2048
        );
        assert_eq!(spec.extra_pages(), 3);
    }

    #[test]
    fn assert_messages_are_mapped_by_pc() {
        let spec = AppSpec::algoku().unwrap();
        let found = spec
            .errors
            .iter()
            .any(|(_, m)| m == "Grid must be 81 bytes long.");
        assert!(found);
    }

    #[test]
    fn malformed_specs_are_errors() {
        assert!(AppSpec::parse("{").is_err());
        assert!(AppSpec::parse(r#"{"name":"x","methods":[]}"#).is_err());
    }
}
