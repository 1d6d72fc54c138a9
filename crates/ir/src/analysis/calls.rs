//! The static call graph, checked for cycles: SPIR-V forbids recursion (a Vulkan entry
//! point's call graph has no cycles), and Direct3D has none either.
//!
//! One walk over the program collects each function's calls; an iterative depth-first
//! search over the functions then finds a call back into a function still on the stack.
//! Both are linear in the size of the program, and a program without calls costs one scan.

use crate::builder::Builder;
use crate::op::SsaDef;
use crate::opcode::OpCode;

/// The first call found that closes a cycle of calls (a function calling itself, directly
/// or through others), if the program has one.
pub fn recursive_call(b: &Builder) -> Option<SsaDef> {
    // Function number of each `Function` def (0: none), then each function's calls as
    // (callee def, call def).
    let mut number = vec![0u32; b.id_bound()];
    let mut calls: Vec<Vec<(SsaDef, SsaDef)>> = Vec::new();
    let mut any_call = false;
    for (def, op) in b.iter() {
        match op.opcode {
            OpCode::Function => {
                calls.push(Vec::new());
                if let Some(n) = number.get_mut(def.index()) {
                    *n = calls.len() as u32;
                }
            }
            OpCode::FunctionCall => {
                if let (Some(list), Some(callee)) = (calls.last_mut(), op.arg(0)) {
                    list.push((callee, def));
                    any_call = true;
                }
            }
            _ => {}
        }
    }
    if !any_call {
        return None;
    }
    let func_of = |d: SsaDef| -> Option<usize> {
        let n = *number.get(d.index())?;
        (n > 0).then(|| n as usize - 1)
    };
    // 0: not visited, 1: on the stack, 2: done.
    let mut state = vec![0u8; calls.len()];
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..calls.len() {
        if state[root] != 0 {
            continue;
        }
        state[root] = 1;
        stack.push((root, 0));
        while let Some(top) = stack.last_mut() {
            let (f, next) = *top;
            let Some(&(callee, call)) = calls[f].get(next) else {
                state[f] = 2;
                stack.pop();
                continue;
            };
            top.1 += 1;
            let Some(g) = func_of(callee) else {
                continue;
            };
            match state[g] {
                0 => {
                    state[g] = 1;
                    stack.push((g, 0));
                }
                1 => return Some(call),
                _ => {}
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn program(calls: &[(u32, u32)]) -> String {
        // Functions %100.. call each other as `calls` (caller, callee) says.
        let mut text = String::from("%1 = EntryPoint %100 Pixel\n");
        let n = calls.iter().map(|&(a, b)| a.max(b)).max().unwrap_or(0) + 1;
        let mut id = 100 + n + 1;
        for f in 0..n {
            text += &format!("%{} = Function void\n%{} = Label None\n", 100 + f, id);
            id += 1;
            for &(_, callee) in calls.iter().filter(|c| c.0 == f) {
                text += &format!("%{id} = FunctionCall void %{}\n", 100 + callee);
                id += 1;
            }
            text += &format!("%{} = Return void null\n%{} = FunctionEnd\n", id, id + 1);
            id += 2;
        }
        text
    }

    fn check(calls: &[(u32, u32)]) -> bool {
        let b = crate::text::parse(&program(calls)).unwrap_or_else(|e| panic!("{e}"));
        recursive_call(&b).is_some()
    }

    #[test]
    fn cycles_of_calls_are_found() {
        assert!(!check(&[]));
        assert!(!check(&[(0, 1), (1, 2), (0, 2)]));
        assert!(check(&[(0, 0)]));
        assert!(check(&[(0, 1), (1, 2), (2, 1)]));
        assert!(
            check(&[(0, 1), (2, 3), (3, 2)]),
            "a cycle not reached from the entry"
        );
    }

    #[test]
    fn a_long_chain_is_walked_without_recursion() {
        let calls: Vec<(u32, u32)> = (0..20_000).map(|i| (i, i + 1)).collect();
        assert!(!check(&calls));
        let mut cyclic = calls;
        cyclic.push((20_000, 0));
        assert!(check(&cyclic));
    }
}
