package lockstep.nes.core.cpu;

import static lockstep.nes.core.cpu.Cpu.*;
import static lockstep.nes.core.cpu.Opcodes.*;

/**
 * The fast path of {@link Cpu#tick}: an instruction run as a whole ({@link Cpu#runInstruction}),
 * each of its cycles one call to the {@link Bus}, with the same accesses in the same order, the
 * same interrupt polls after every cycle, and the same CPU state afterwards (internal latches
 * included) as the per-cycle step called once per cycle. Its operations are the per-cycle
 * step's ({@link Operations}); only the order of the cycles is written here again, per
 * addressing mode. Pinned to the per-cycle step by WholeInstructionTest (every instruction,
 * random code on every board) and QuietCycleTest (quiet cycles, interrupts in every cycle
 * position).
 *
 * <p>A cycle the bus finds quiet ({@link Bus#quietRead}, {@link Bus#quietWrite}) leaves /NMI
 * and /IRQ as the last poll saw them, so the poll after it asks no lines ({@link #poll}).
 */
final class WholeInstruction {
    private WholeInstruction() {
    }

    /** See {@link Cpu#runInstruction}. */
    static void run(Cpu c, Bus bus) {
        int q; // a quiet read's value, or -1 (see Bus#quietRead)
        final int op = (q = bus.quietRead(c.addr)) >= 0 ? q : bus.cycleRead(c.addr);
        c.opcode = op;
        c.opPc = c.pc;
        int pc = (c.pc + 1) & 0xFFFF;
        switch (MODE[op]) {
            case IMP -> implied(c, bus, op, pc, q);
            case IMM -> immediate(c, bus, op, pc, q);
            case ZP -> zeroPage(c, bus, op, pc, q);
            case ZPX, ZPY -> zeroPageIndexed(c, bus, op, pc, q);
            case ABS -> absolute(c, bus, op, pc, q);
            case ABX, ABY -> absoluteIndexed(c, bus, op, pc, q);
            case IZX -> indexedIndirect(c, bus, op, pc, q);
            case IZY -> indirectIndexed(c, bus, op, pc, q);
            case REL -> branch(c, bus, op, pc, q);
            case JMP -> jump(c, bus, op, pc, q);
            case JMI -> jumpIndirect(c, bus, op, pc, q);
            case JSR -> jsr(c, bus, op, pc, q);
            case RTS -> rts(c, bus, op, pc, q);
            case RTI -> rti(c, bus, op, pc, q);
            case PSH -> push(c, bus, op, pc, q);
            case PUL -> pull(c, bus, op, pc, q);
            default -> fetchOnly(c, pc, bus, q); // BRK and JAM
        }
    }

    // One method per addressing mode: the instruction after its opcode fetch, pc being the
    // address after the opcode (why one method each: docs/design/cpu.md).

    private static void implied(Cpu c, Bus bus, int op, int pc, int q) {
        c.pc = pc;
        poll(c, bus, q);
        if ((q = bus.quietRead(pc)) < 0) {
            bus.cycleRead(pc);
        }
        Operations.implied(c);
        end(c, bus, q);
    }

    private static void immediate(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int v = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        Operations.load(c, v);
        end(c, bus, q);
    }

    private static void zeroPage(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int e = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        operand(c, bus, e);
    }

    private static void zeroPageIndexed(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int base = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        if ((q = bus.quietRead(base)) < 0) {
            bus.cycleRead(base);
        }
        poll(c, bus, q);
        operand(c, bus, (base + (MODE[op] == ZPX ? c.x : c.y)) & 0xFF);
    }

    private static void absolute(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int low = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        operand(c, bus, low | (high << 8));
    }

    private static void absoluteIndexed(Cpu c, Bus bus, int op, int pc, int q) {
        if (Operations.isUnstableStore(OP[op])) {
            fetchOnly(c, pc, bus, q);
            return;
        }
        poll(c, bus, q);
        final int low = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        indexed(c, bus, low, high, MODE[op] == ABX ? c.x : c.y, q);
    }

    private static void indexedIndirect(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int pointer = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        if ((q = bus.quietRead(pointer)) < 0) {
            bus.cycleRead(pointer);
        }
        final int t = (pointer + c.x) & 0xFF;
        c.tmp = t;
        poll(c, bus, q);
        final int low = (q = bus.quietRead(t)) >= 0 ? q : bus.cycleRead(t);
        poll(c, bus, q);
        final int high = (q = bus.quietRead((t + 1) & 0xFF)) >= 0 ? q : bus.cycleRead((t + 1) & 0xFF);
        poll(c, bus, q);
        operand(c, bus, low | (high << 8));
    }

    private static void indirectIndexed(Cpu c, Bus bus, int op, int pc, int q) {
        if (Operations.isUnstableStore(OP[op])) {
            fetchOnly(c, pc, bus, q);
            return;
        }
        poll(c, bus, q);
        final int pointer = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        c.tmp = pointer;
        poll(c, bus, q);
        final int low = (q = bus.quietRead(pointer)) >= 0 ? q : bus.cycleRead(pointer);
        poll(c, bus, q);
        final int high = (q = bus.quietRead((pointer + 1) & 0xFF)) >= 0 ? q : bus.cycleRead((pointer + 1) & 0xFF);
        indexed(c, bus, low, high, c.y, q);
    }

    private static void branch(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int offset = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        pc = (pc + 1) & 0xFFFF;
        c.pc = pc;
        if (!Operations.branchTaken(c)) {
            end(c, bus, q);
            return;
        }
        // Taken: interrupts are polled at the end of the operand cycle, not the next.
        c.branchPolled = c.interruptPolled;
        c.tmp = offset;
        poll(c, bus, q);
        if ((q = bus.quietRead(pc)) < 0) {
            bus.cycleRead(pc);
        }
        final int target = (pc + (byte) offset) & 0xFFFF;
        if ((target & 0xFF00) == (pc & 0xFF00)) {
            c.pc = target;
            finish(c, c.branchPolled, bus, q);
        } else {
            c.ea = target;
            poll(c, bus, q);
            if ((q = bus.quietRead((pc & 0xFF00) | (target & 0xFF))) < 0) {
                bus.cycleRead((pc & 0xFF00) | (target & 0xFF));
            }
            c.pc = target;
            finish(c, c.branchPolled || c.interruptPolled, bus, q);
        }
    }

    private static void jump(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int low = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        pc = (pc + 1) & 0xFFFF;
        c.pc = pc;
        c.ea = low;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = low | (high << 8);
        end(c, bus, q);
    }

    private static void jumpIndirect(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int low = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        pc = (pc + 1) & 0xFFFF;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = (pc + 1) & 0xFFFF;
        final int pointer = low | (high << 8);
        c.tmp = pointer;
        poll(c, bus, q);
        final int targetLow = (q = bus.quietRead(pointer)) >= 0 ? q : bus.cycleRead(pointer);
        c.ea = targetLow;
        poll(c, bus, q);
        // The pointer's high byte is fetched without carry into its page.
        final int targetHigh = (q = bus.quietRead((pointer & 0xFF00) | ((pointer + 1) & 0xFF))) >= 0 ? q : bus.cycleRead((pointer & 0xFF00) | ((pointer + 1) & 0xFF));
        c.pc = targetLow | (targetHigh << 8);
        end(c, bus, q);
    }

    private static void jsr(Cpu c, Bus bus, int op, int pc, int q) {
        poll(c, bus, q);
        final int low = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        pc = (pc + 1) & 0xFFFF;
        c.pc = pc;
        c.ea = low;
        poll(c, bus, q);
        if ((q = bus.quietRead(0x100 | c.s)) < 0) {
            bus.cycleRead(0x100 | c.s);
        }
        poll(c, bus, q);
        if ((q = bus.quietWrite(0x100 | c.s, pc >> 8)) < 0) {
            bus.cycleWrite(0x100 | c.s, pc >> 8);
        }
        c.s = (c.s - 1) & 0xFF;
        poll(c, bus, q);
        if ((q = bus.quietWrite(0x100 | c.s, pc & 0xFF)) < 0) {
            bus.cycleWrite(0x100 | c.s, pc & 0xFF);
        }
        c.dout = pc & 0xFF;
        c.s = (c.s - 1) & 0xFF;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(pc)) >= 0 ? q : bus.cycleRead(pc);
        c.pc = low | (high << 8);
        end(c, bus, q);
    }

    private static void rts(Cpu c, Bus bus, int op, int pc, int q) {
        pullStart(c, pc, bus, q);
        final int low = (q = bus.quietRead(0x100 | c.s)) >= 0 ? q : bus.cycleRead(0x100 | c.s);
        c.ea = low;
        c.s = (c.s + 1) & 0xFF;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(0x100 | c.s)) >= 0 ? q : bus.cycleRead(0x100 | c.s);
        pc = low | (high << 8);
        c.pc = pc;
        poll(c, bus, q);
        if ((q = bus.quietRead(pc)) < 0) {
            bus.cycleRead(pc);
        }
        c.pc = (pc + 1) & 0xFFFF;
        end(c, bus, q);
    }

    private static void rti(Cpu c, Bus bus, int op, int pc, int q) {
        pullStart(c, pc, bus, q);
        Operations.setP(c, (q = bus.quietRead(0x100 | c.s)) >= 0 ? q : bus.cycleRead(0x100 | c.s));
        c.s = (c.s + 1) & 0xFF;
        poll(c, bus, q);
        final int low = (q = bus.quietRead(0x100 | c.s)) >= 0 ? q : bus.cycleRead(0x100 | c.s);
        c.ea = low;
        c.s = (c.s + 1) & 0xFF;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(0x100 | c.s)) >= 0 ? q : bus.cycleRead(0x100 | c.s);
        c.pc = low | (high << 8);
        end(c, bus, q);
    }

    private static void push(Cpu c, Bus bus, int op, int pc, int q) {
        c.pc = pc;
        poll(c, bus, q);
        if ((q = bus.quietRead(pc)) < 0) {
            bus.cycleRead(pc);
        }
        final int value = op == 0x08 ? c.p | B : c.a;
        poll(c, bus, q);
        if ((q = bus.quietWrite(0x100 | c.s, value)) < 0) {
            bus.cycleWrite(0x100 | c.s, value);
        }
        c.dout = value;
        c.s = (c.s - 1) & 0xFF;
        end(c, bus, q);
    }

    private static void pull(Cpu c, Bus bus, int op, int pc, int q) {
        pullStart(c, pc, bus, q);
        final int v = (q = bus.quietRead(0x100 | c.s)) >= 0 ? q : bus.cycleRead(0x100 | c.s);
        if (op == 0x28) {
            Operations.setP(c, v);
        } else {
            c.a = v;
            Operations.nz(c, c.a);
        }
        end(c, bus, q);
    }

    /**
     * The first cycles of RTS, RTI, PLA and PLP after the fetch: the dummy read of the next byte,
     * the dummy read of the stack, S incremented; the poll before the next cycle made.
     */
    private static void pullStart(Cpu c, int nextPc, Bus bus, int q) {
        c.pc = nextPc;
        poll(c, bus, q);
        if ((q = bus.quietRead(nextPc)) < 0) {
            bus.cycleRead(nextPc);
        }
        poll(c, bus, q);
        if ((q = bus.quietRead(0x100 | c.s)) < 0) {
            bus.cycleRead(0x100 | c.s);
        }
        c.s = (c.s + 1) & 0xFF;
        poll(c, bus, q);
    }

    /**
     * See {@link Cpu#runInterrupt}: two reads of PC (the first in place of the opcode fetch),
     * PCH, PCL and P (B clear) pushed, then the vector, chosen after the P push: NMI's when an
     * NMI is pending by the poll before it, else IRQ's; I is set as the vector is read. The
     * handler's first instruction is not interrupted (its fetch is never an interrupt's).
     */
    static void interrupt(Cpu c, Bus bus) {
        int q; // a quiet read's or write's result, or -1 (see Bus#quietRead)
        final int pc = c.pc;
        if ((q = bus.quietRead(pc)) < 0) {
            bus.cycleRead(pc);
        }
        poll(c, bus, q);
        if ((q = bus.quietRead(pc)) < 0) {
            bus.cycleRead(pc);
        }
        poll(c, bus, q);
        q = stackPush(c, bus, pc >> 8);
        poll(c, bus, q);
        q = stackPush(c, bus, pc & 0xFF);
        poll(c, bus, q);
        final int p = c.p;
        q = stackPush(c, bus, p);
        c.dout = p;
        final int vector;
        if (c.nmiPending) {
            c.nmiPending = false;
            vector = 0xFFFA;
        } else {
            vector = 0xFFFE;
        }
        c.p = p | I;
        c.tmp = vector;
        poll(c, bus, q);
        final int low = (q = bus.quietRead(vector)) >= 0 ? q : bus.cycleRead(vector);
        c.ea = low;
        poll(c, bus, q);
        final int high = (q = bus.quietRead(vector + 1)) >= 0 ? q : bus.cycleRead(vector + 1);
        c.pc = low | (high << 8);
        finish(c, false, bus, q);
    }

    /** A push to the stack page, S decremented; returns the quiet write's result. */
    private static int stackPush(Cpu c, Bus bus, int value) {
        final int address = 0x100 | c.s;
        int q;
        if ((q = bus.quietWrite(address, value)) < 0) {
            bus.cycleWrite(address, value);
        }
        c.s = (c.s - 1) & 0xFF;
        return q;
    }

    /** The rest of the opcode fetch cycle as {@link Cpu#tick} does it; the instruction goes on per cycle. */
    private static void fetchOnly(Cpu c, int nextPc, Bus bus, int q) {
        c.pc = nextPc;
        c.step = 1;
        c.addr = nextPc;
        c.write = false;
        poll(c, bus, q);
    }

    /**
     * The poll at the end of a cycle whose quiet result was {@code q} (a value or 0 when the
     * cycle was quiet, -1 when whole): a quiet cycle leaves /NMI and /IRQ as the last poll saw
     * them (no edge to detect), so only the I flag can have changed what is pending.
     * ({@link Cpu#pollInterrupts} with the lines as they were, without asking the bus.)
     */
    private static void poll(Cpu c, Bus bus, int q) {
        if (q >= 0 && c.linesSeen) {
            c.interruptPolled = c.nmiPending || (c.irqLine && (c.p & I) == 0);
        } else {
            c.pollInterrupts(bus.nmiLow(), bus.irqLow());
        }
    }

    /** The last cycle's work is done: the instruction ends as {@link Cpu#done} decides, then the poll. */
    private static void end(Cpu c, Bus bus, int q) {
        finish(c, c.interruptPolled, bus, q);
    }

    private static void finish(Cpu c, boolean polled, Bus bus, int q) {
        c.opcode = polled ? OP_INT : OP_FETCH;
        c.step = 0;
        c.addr = c.pc;
        c.write = false;
        poll(c, bus, q);
    }

    /**
     * The high byte of an indexed base address was read (the poll of that cycle not yet made):
     * the read at the un-carried address, then the operand (see {@link Cpu#indexBase}).
     */
    private static void indexed(Cpu c, Bus bus, int low, int high, int index, int q) {
        final int sum = low + index;
        c.hiPlusOne = (high + 1) & 0xFF;
        final int partial = (high << 8) | (sum & 0xFF);
        final int e = ((high << 8) + sum) & 0xFFFF;
        poll(c, bus, q);
        if (KIND[c.opcode] == READ && partial == e) {
            c.ea = e;
            Operations.load(c, (q = bus.quietRead(e)) >= 0 ? q : bus.cycleRead(e));
            end(c, bus, q);
            return;
        }
        if ((q = bus.quietRead(partial)) < 0) {
            bus.cycleRead(partial);
        }
        poll(c, bus, q);
        operand(c, bus, e);
    }

    /** The effective address {@code e} is known (the poll of the cycle that found it made): the operand's cycles. */
    private static void operand(Cpu c, Bus bus, int e) {
        int q; // a quiet read's value, or -1 (see Bus#quietRead)
        c.ea = e;
        switch (KIND[c.opcode]) {
            case READ -> {
                Operations.load(c, (q = bus.quietRead(e)) >= 0 ? q : bus.cycleRead(e));
                end(c, bus, q);
            }
            case WRITE -> {
                final int v = Operations.store(c);
                if ((q = bus.quietWrite(e, v)) < 0) {
                    bus.cycleWrite(e, v);
                }
                c.dout = v;
                end(c, bus, q);
            }
            default -> {
                final int v = (q = bus.quietRead(e)) >= 0 ? q : bus.cycleRead(e);
                poll(c, bus, q);
                // The dummy write of the unmodified value.
                if ((q = bus.quietWrite(e, v)) < 0) {
                    bus.cycleWrite(e, v);
                }
                final int r = Operations.modify(c, v);
                poll(c, bus, q);
                if ((q = bus.quietWrite(e, r)) < 0) {
                    bus.cycleWrite(e, r);
                }
                c.tmp = r;
                c.dout = r;
                end(c, bus, q);
            }
        }
    }
}
