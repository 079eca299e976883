import { LinkError } from "../core/base/mod.ts";

/** One classic BPF instruction, as the kernel reads it (struct sock_filter). */
export interface BpfInstruction {
  readonly code: number;
  readonly jt: number;
  readonly jf: number;
  readonly k: number;
}

/** What a jump goes to: a label, or the next instruction when left out. */
type Target = string | undefined;

/** One step of a program before its jumps are counted: labels instead of offsets. */
export type BpfStep =
  /** A = the 32-bit word at `offset` of the packet (for seccomp, struct seccomp_data). */
  | { readonly op: "ld"; readonly offset: number }
  /** Jumps to `yes` when A == k (jeq), A >= k unsigned (jge) or A & k != 0 (jset), else to `no`. */
  | { readonly op: "jeq" | "jge" | "jset"; readonly k: number; readonly yes?: Target; readonly no?: Target }
  /** Jumps to `to`, however far ahead. */
  | { readonly op: "ja"; readonly to: string }
  /** Returns k. */
  | { readonly op: "ret"; readonly k: number }
  /** Names the place of the next instruction. */
  | { readonly op: "label"; readonly name: string };

/** Opcodes (linux/bpf_common.h): BPF_LD|BPF_W|BPF_ABS, BPF_JMP|BPF_JA, BPF_JMP|BPF_Jxx|BPF_K, BPF_RET|BPF_K. */
export const BPF = { ld: 0x20, ja: 0x05, jeq: 0x15, jge: 0x35, jset: 0x45, ret: 0x06 } as const;

/** The kernel's bound on a classic BPF program (BPF_MAXINSNS). */
const MAX_INSTRUCTIONS = 4096;

/**
 * Counts a program's jumps: each label becomes the offset from the instruction after the jump. A
 * conditional jump reaches at most 255 forward, `ja` any distance, and none goes back: a jump
 * that would, or a label named twice or never, is a bug here.
 */
export function assembleBpf(steps: readonly BpfStep[]): BpfInstruction[] {
  const at = new Map<string, number>();
  let count = 0;
  for (const step of steps) {
    if (step.op !== "label") count++;
    else if (at.has(step.name)) throw bug(`the label "${step.name}" is named twice`);
    else at.set(step.name, count);
  }
  if (count > MAX_INSTRUCTIONS) throw bug(`${count} instructions are more than ${MAX_INSTRUCTIONS}`);
  const out: BpfInstruction[] = [];
  for (const step of steps) {
    if (step.op === "label") continue;
    const here = out.length;
    const offset = (target: Target, most = 255) => {
      if (target === undefined) return 0;
      const to = at.get(target);
      if (to === undefined) throw bug(`the label "${target}" is never placed`);
      const jump = to - here - 1;
      if (jump < 0 || jump > most) throw bug(`the jump to "${target}" is ${jump} long`);
      return jump;
    };
    if (step.op === "ld") out.push({ code: BPF.ld, jt: 0, jf: 0, k: step.offset });
    else if (step.op === "ja") out.push({ code: BPF.ja, jt: 0, jf: 0, k: offset(step.to, MAX_INSTRUCTIONS) });
    else if (step.op === "ret") out.push({ code: BPF.ret, jt: 0, jf: 0, k: step.k >>> 0 });
    else out.push({ code: BPF[step.op], jt: offset(step.yes), jf: offset(step.no), k: step.k >>> 0 });
  }
  return out;
}

/** The program as the kernel takes it: 8 bytes an instruction, in this machine's byte order. */
export function encodeBpf(program: readonly BpfInstruction[]): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(program.length * 8);
  const view = new DataView(bytes.buffer);
  const little = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
  program.forEach((ins, i) => {
    view.setUint16(i * 8, ins.code, little);
    view.setUint8(i * 8 + 2, ins.jt);
    view.setUint8(i * 8 + 3, ins.jf);
    view.setUint32(i * 8 + 4, ins.k, little);
  });
  return bytes;
}

function bug(what: string): LinkError {
  return new LinkError("INTERNAL", `Cannot build the sandbox's system call filter: ${what}`);
}
