//! What a chain said about one transaction group, whichever chain it was.

/// One top-level transaction's result.
#[derive(Clone, Debug, Default)]
pub struct TxnOutcome {
    /// The logs of the transaction, in order.
    pub logs: Vec<Vec<u8>>,
    /// How many inner transactions it made.
    pub inner_txns: usize,
    /// How many of them were app calls.
    pub inner_app_calls: usize,
    /// The id of the app this transaction created, if any.
    pub created_app: Option<u64>,
    /// Opcodes this transaction's programs used (inner app calls included),
    /// when measured: simulate's per-transaction `app-budget-consumed`.
    pub budget: Option<u64>,
}

/// A chain's refusal of a group: its message and, when a program failed, the pc.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The chain's message.
    pub message: String,
    /// The program counter of the failure, when a program failed.
    pub pc: Option<u64>,
    /// Index in the group of the failing transaction, when known.
    pub failed_at: Option<usize>,
}

/// The evaluation (simulated or real) of one group.
#[derive(Clone, Debug, Default)]
pub struct GroupOutcome {
    /// Why the group failed, or `None` when it succeeded.
    pub failure: Option<Failure>,
    /// Each top-level transaction's result, in group order.
    pub txns: Vec<TxnOutcome>,
    /// Opcode budget the group consumed, when the chain measured it.
    pub budget_consumed: Option<u64>,
    /// Opcode budget added by inner app calls, when the chain reported it.
    pub budget_added: Option<u64>,
    /// The round the group was confirmed in, when sent.
    pub confirmed_round: Option<u64>,
}

impl GroupOutcome {
    /// Whether the group passed.
    pub fn succeeded(&self) -> bool {
        self.failure.is_none()
    }
}

/// Pull `pc=N` out of an evaluator message.
pub fn pc_in(message: &str) -> Option<u64> {
    let at = message.find("pc=")?;
    let digits: String = message[at + 3..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect();
    digits.parse().ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn finds_pc() {
        assert_eq!(
            super::pc_in("logic eval error: assert failed pc=110. Details: pc=110"),
            Some(110)
        );
        assert_eq!(super::pc_in("no pc here"), None);
    }
}
