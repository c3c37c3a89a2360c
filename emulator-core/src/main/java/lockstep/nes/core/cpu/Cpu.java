package lockstep.nes.core.cpu;

import static lockstep.nes.state.DigestKeys.*;

import static lockstep.nes.core.cpu.Opcodes.*;

import lockstep.nes.state.DigestKeys;
import lockstep.nes.state.Digestible;
import lockstep.nes.state.StateVisitor;

/**
 * The 2A03's 6502 core (no decimal mode), stepped one bus cycle at a time.
 *
 * <p>The CPU is modelled by its pins: before each cycle it presents an address and a
 * read/write direction ({@link #address()}, {@link #isWrite()}, {@link #dataOut()}); the
 * console performs that access and calls {@link #tick} with the value read. {@code tick}
 * consumes it, does the internal work of that cycle and presents the next access. Every cycle
 * is therefore a real bus access (dummy reads and writes included), an instruction can be
 * stopped, saved and resumed between any two cycles, and the DMA unit can halt the CPU on a
 * read cycle by simply not calling {@code tick}.
 *
 * <p>Interrupts: the console reports the /NMI and /IRQ lines after every cycle through
 * {@link #pollInterrupts}. The CPU decides at the end of an instruction from what it polled at
 * the end of the instruction's second-to-last cycle (branches and interrupt sequences differ,
 * as on hardware).
 */
public final class Cpu implements Digestible {
    public static final int C = 0x01;
    public static final int Z = 0x02;
    public static final int I = 0x04;
    public static final int D = 0x08;
    public static final int B = 0x10;
    public static final int U = 0x20;
    public static final int V = 0x40;
    public static final int N = 0x80;

    // Registers.
    private int a;
    private int x;
    private int y;
    private int s;
    /** Status, with bit 5 always set and B (bit 4) never held. */
    private int p = U | I;
    private int pc;

    // Pins: the access to perform this cycle.
    private int addr;
    private boolean write;
    private int dout;

    // Instruction in progress.
    /** The address the current instruction's opcode was fetched from. */
    private int opPc;
    private int opcode = OP_RESET;
    private int step;
    /** Effective address (or its low byte while it is being fetched). */
    private int ea;
    /** Operand / pointer scratch. */
    private int tmp;
    /** The high byte of an indexed base address, +1 (for the SHA/SHX/SHY/TAS stores). */
    private int hiPlusOne;

    // Interrupt lines and polling.
    private boolean nmiLine;
    /** The NMI edge detector's latch: set on a high-to-low edge of /NMI, cleared when taken. */
    private boolean nmiPending;
    /** An interrupt was pending at the end of the last cycle (NMI latched, or IRQ with I clear). */
    private boolean interruptPolled;
    /** The poll result kept by a taken branch from the end of its operand cycle. */
    private boolean branchPolled;
    private boolean jammed;

    /** Power-on: registers cleared, then the reset sequence. */
    public void power() {
        a = 0;
        x = 0;
        y = 0;
        s = 0;
        p = U | I;
        // Internal latches as a freshly built CPU has them, so a power cycle leaves nothing of
        // the previous run behind (the reset sequence's dummy reads start at pc).
        pc = 0;
        opPc = 0;
        addr = 0;
        write = false;
        dout = 0;
        ea = 0;
        tmp = 0;
        hiPlusOne = 0;
        nmiLine = false;
        nmiPending = false;
        interruptPolled = false;
        branchPolled = false;
        reset();
    }

    /** Starts the reset sequence (registers kept, S decremented by 3 by the sequence, I set). */
    public void reset() {
        jammed = false;
        opcode = OP_RESET;
        step = 0;
        read(pc);
    }

    /** Sets the program counter and starts fetching there (nestest automation mode). */
    public void jump(int address) {
        pc = address & 0xFFFF;
        opcode = OP_FETCH;
        step = 0;
        read(pc);
    }

    public int address() {
        return addr;
    }

    public boolean isWrite() {
        return write;
    }

    public int dataOut() {
        return dout;
    }

    /** True when the coming cycle is the opcode fetch of a new instruction. */
    public boolean atInstructionStart() {
        return opcode == OP_FETCH;
    }

    public boolean jammed() {
        return jammed;
    }

    /**
     * Reports the interrupt lines at the end of a cycle. {@code nmi} is true while /NMI is low,
     * {@code irq} while /IRQ is low.
     */
    public void pollInterrupts(boolean nmi, boolean irq) {
        if (nmi && !nmiLine) {
            nmiPending = true;
        }
        nmiLine = nmi;
        interruptPolled = nmiPending || (irq && (p & I) == 0);
    }

    /** Completes the current cycle with the value read (ignored for writes). */
    public void tick(int data) {
        if (opcode == OP_FETCH) {
            opcode = data;
            opPc = pc;
            pc = (pc + 1) & 0xFFFF;
            step = 1;
            read(pc);
            return;
        }
        switch (MODE[opcode]) {
            case IMP -> implied();
            case IMM -> immediate(data);
            case ZP -> zeroPage(data);
            case ZPX -> zeroPageIndexed(data, x);
            case ZPY -> zeroPageIndexed(data, y);
            case ABS -> absolute(data);
            case ABX -> absoluteIndexed(data, x);
            case ABY -> absoluteIndexed(data, y);
            case IZX -> indexedIndirect(data);
            case IZY -> indirectIndexed(data);
            case REL -> branch(data);
            case JMP -> jumpAbsolute(data);
            case JMI -> jumpIndirect(data);
            case JSR -> jsr(data);
            case RTS -> rts(data);
            case RTI -> rti(data);
            case BRK -> interrupt(data);
            case PSH -> push();
            case PUL -> pull(data);
            default -> jam();
            // Operand phase of the memory addressing modes (steps >= 10) is shared; see operand().
        }
    }

    // ---- bus helpers ----

    private void read(int address) {
        addr = address;
        write = false;
    }

    private void write(int address, int value) {
        addr = address;
        write = true;
        dout = value;
    }

    private void incPc() {
        pc = (pc + 1) & 0xFFFF;
    }

    /** Ends the instruction: the next cycle fetches an opcode, or starts an interrupt. */
    private void done(boolean polled) {
        if (polled) {
            opcode = OP_INT;
        } else {
            opcode = OP_FETCH;
        }
        step = 0;
        read(pc);
    }

    // ---- addressing modes ----

    private void implied() {
        // Step 1 was the dummy read of the byte after the opcode.
        execImplied();
        done(interruptPolled);
    }

    private void immediate(int data) {
        incPc();
        execRead(data);
        done(interruptPolled);
    }

    private void zeroPage(int data) {
        if (step == 1) {
            incPc();
            ea = data;
            beginOperand();
        } else {
            operand(data);
        }
    }

    private void zeroPageIndexed(int data, int index) {
        switch (step) {
            case 1 -> {
                incPc();
                ea = data;
                read(ea);
                step = 2;
            }
            case 2 -> {
                ea = (ea + index) & 0xFF;
                beginOperand();
            }
            default -> operand(data);
        }
    }

    private void absolute(int data) {
        switch (step) {
            case 1 -> {
                incPc();
                ea = data;
                read(pc);
                step = 2;
            }
            case 2 -> {
                incPc();
                ea |= data << 8;
                beginOperand();
            }
            default -> operand(data);
        }
    }

    private void absoluteIndexed(int data, int index) {
        switch (step) {
            case 1 -> {
                incPc();
                ea = data;
                read(pc);
                step = 2;
            }
            case 2 -> {
                incPc();
                indexBase(data, index);
            }
            case 3 -> fixedAddress();
            default -> operand(data);
        }
    }

    private void indexedIndirect(int data) {
        switch (step) {
            case 1 -> {
                incPc();
                tmp = data;
                read(tmp);
                step = 2;
            }
            case 2 -> {
                tmp = (tmp + x) & 0xFF;
                read(tmp);
                step = 3;
            }
            case 3 -> {
                ea = data;
                read((tmp + 1) & 0xFF);
                step = 4;
            }
            case 4 -> {
                ea |= data << 8;
                beginOperand();
            }
            default -> operand(data);
        }
    }

    private void indirectIndexed(int data) {
        switch (step) {
            case 1 -> {
                incPc();
                tmp = data;
                read(tmp);
                step = 2;
            }
            case 2 -> {
                ea = data;
                read((tmp + 1) & 0xFF);
                step = 3;
            }
            case 3 -> indexBase(data, y);
            case 4 -> fixedAddress();
            default -> operand(data);
        }
    }

    /**
     * The high byte of an indexed base address arrived: read at the un-carried address. Reads
     * that did not cross a page use that read; everything else treats it as a dummy read.
     */
    private void indexBase(int high, int index) {
        int low = ea + index;
        hiPlusOne = (high + 1) & 0xFF;
        int partial = (high << 8) | (low & 0xFF);
        ea = ((high << 8) + low) & 0xFFFF;
        int kind = KIND[opcode];
        if (kind == READ && partial == ea) {
            read(ea);
            step = 10;
        } else {
            if (kind == WRITE && partial != ea && isUnstableStore(OP[opcode])) {
                // The carry into the high byte is ANDed with the stored value.
                ea = (storeValue() << 8) | (ea & 0xFF);
            }
            read(partial);
            // Remember that the next step fixes the address (step 3 for abs, 4 for (ind),Y).
            step++;
        }
    }

    private static boolean isUnstableStore(int op) {
        return op == SHA || op == SHX || op == SHY || op == TAS;
    }

    /** After the dummy read at the un-carried address. */
    private void fixedAddress() {
        beginOperand();
    }

    /** The effective address is known: start the operand access. */
    private void beginOperand() {
        switch (KIND[opcode]) {
            case READ -> {
                read(ea);
                step = 10;
            }
            case WRITE -> {
                write(ea, storeValue());
                step = 20;
            }
            default -> {
                read(ea);
                step = 30;
            }
        }
    }

    /** The shared operand phase: steps 10 (read), 20 (write), 30-32 (read-modify-write). */
    private void operand(int data) {
        switch (step) {
            case 10 -> {
                execRead(data);
                done(interruptPolled);
            }
            case 20 -> done(interruptPolled);
            case 30 -> {
                tmp = data;
                write(ea, tmp);
                step = 31;
            }
            case 31 -> {
                tmp = execRmw(tmp);
                write(ea, tmp);
                step = 32;
            }
            default -> done(interruptPolled);
        }
    }

    // ---- control flow ----

    private void branch(int data) {
        switch (step) {
            case 1 -> {
                incPc();
                if (!branchTaken()) {
                    done(interruptPolled);
                    return;
                }
                // Taken: interrupts are polled here (end of the operand cycle), not at the end
                // of the next cycle.
                branchPolled = interruptPolled;
                tmp = data;
                read(pc);
                step = 2;
            }
            case 2 -> {
                int target = (pc + (byte) tmp) & 0xFFFF;
                if ((target & 0xFF00) == (pc & 0xFF00)) {
                    pc = target;
                    done(branchPolled);
                } else {
                    // Dummy read with the un-fixed high byte.
                    ea = target;
                    read((pc & 0xFF00) | (target & 0xFF));
                    step = 3;
                }
            }
            default -> {
                pc = ea;
                done(branchPolled || interruptPolled);
            }
        }
    }

    private boolean branchTaken() {
        int flag = switch (opcode >> 6) {
            case 0 -> p & N;
            case 1 -> p & V;
            case 2 -> p & C;
            default -> p & Z;
        };
        return (flag != 0) == ((opcode & 0x20) != 0);
    }

    private void jumpAbsolute(int data) {
        if (step == 1) {
            incPc();
            ea = data;
            read(pc);
            step = 2;
        } else {
            pc = ea | (data << 8);
            done(interruptPolled);
        }
    }

    private void jumpIndirect(int data) {
        switch (step) {
            case 1 -> {
                incPc();
                tmp = data;
                read(pc);
                step = 2;
            }
            case 2 -> {
                incPc();
                tmp |= data << 8;
                read(tmp);
                step = 3;
            }
            case 3 -> {
                ea = data;
                // The pointer's high byte is fetched without carry into its page.
                read((tmp & 0xFF00) | ((tmp + 1) & 0xFF));
                step = 4;
            }
            default -> {
                pc = ea | (data << 8);
                done(interruptPolled);
            }
        }
    }

    private void jsr(int data) {
        switch (step) {
            case 1 -> {
                incPc();
                ea = data;
                read(0x100 | s);
                step = 2;
            }
            case 2 -> {
                write(0x100 | s, pc >> 8);
                s = (s - 1) & 0xFF;
                step = 3;
            }
            case 3 -> {
                write(0x100 | s, pc & 0xFF);
                s = (s - 1) & 0xFF;
                step = 4;
            }
            case 4 -> {
                read(pc);
                step = 5;
            }
            default -> {
                pc = ea | (data << 8);
                done(interruptPolled);
            }
        }
    }

    private void rts(int data) {
        switch (step) {
            case 1 -> {
                read(0x100 | s);
                step = 2;
            }
            case 2 -> {
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 3;
            }
            case 3 -> {
                ea = data;
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 4;
            }
            case 4 -> {
                pc = ea | (data << 8);
                read(pc);
                step = 5;
            }
            default -> {
                incPc();
                done(interruptPolled);
            }
        }
    }

    private void rti(int data) {
        switch (step) {
            case 1 -> {
                read(0x100 | s);
                step = 2;
            }
            case 2 -> {
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 3;
            }
            case 3 -> {
                setP(data);
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 4;
            }
            case 4 -> {
                ea = data;
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 5;
            }
            default -> {
                pc = ea | (data << 8);
                done(interruptPolled);
            }
        }
    }

    /**
     * BRK, IRQ, NMI and reset share one 7-cycle sequence (reset has one more cycle at its
     * start and reads instead of writing the stack). Step 0 is the opcode fetch cycle of an
     * IRQ/NMI/reset, whose value is discarded.
     */
    private void interrupt(int data) {
        boolean reset = opcode == OP_RESET;
        switch (step) {
            case 0 -> {
                read(pc);
                step = reset ? 100 : 1;
            }
            case 100 -> {
                read(pc);
                step = 1;
            }
            case 1 -> {
                if (opcode == 0x00) {
                    incPc();
                }
                stackAccess(reset, pc >> 8);
                step = 2;
            }
            case 2 -> {
                stackAccess(reset, pc & 0xFF);
                step = 3;
            }
            case 3 -> {
                stackAccess(reset, opcode == 0x00 ? p | B : p);
                step = 4;
            }
            case 4 -> {
                // The vector is chosen after the P push: an NMI seen by then takes over BRK/IRQ.
                if (reset) {
                    tmp = 0xFFFC;
                } else if (nmiPending) {
                    nmiPending = false;
                    tmp = 0xFFFA;
                } else {
                    tmp = 0xFFFE;
                }
                p |= I;
                read(tmp);
                step = 5;
            }
            case 5 -> {
                ea = data;
                read(tmp + 1);
                step = 6;
            }
            default -> {
                pc = ea | (data << 8);
                // The first instruction of a handler always runs before another interrupt.
                done(false);
            }
        }
    }

    /** One of the three stack cycles of an interrupt sequence: a push, or a read on reset. */
    private void stackAccess(boolean reset, int value) {
        if (reset) {
            read(0x100 | s);
        } else {
            write(0x100 | s, value);
        }
        s = (s - 1) & 0xFF;
    }

    private void push() {
        if (step == 1) {
            int value = opcode == 0x08 ? p | B : a;
            write(0x100 | s, value);
            s = (s - 1) & 0xFF;
            step = 2;
        } else {
            done(interruptPolled);
        }
    }

    private void pull(int data) {
        switch (step) {
            case 1 -> {
                read(0x100 | s);
                step = 2;
            }
            case 2 -> {
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 3;
            }
            default -> {
                if (opcode == 0x28) {
                    setP(data);
                } else {
                    a = data;
                    nz(a);
                }
                done(interruptPolled);
            }
        }
    }

    private void jam() {
        // KIL: the CPU stops; the bus keeps reading $FFFF and interrupts are ignored.
        jammed = true;
        read(0xFFFF);
        step = 1;
    }

    // ---- operations ----

    private void nz(int v) {
        p = (p & ~(N | Z)) | (v & N) | (v == 0 ? Z : 0);
    }

    private void setP(int v) {
        p = (v & ~B) | U;
    }

    private void adc(int v) {
        int sum = a + v + (p & C);
        int flags = p & ~(C | V);
        if (sum > 0xFF) {
            flags |= C;
        }
        if (((a ^ sum) & (v ^ sum) & 0x80) != 0) {
            flags |= V;
        }
        p = flags;
        a = sum & 0xFF;
        nz(a);
    }

    private void compare(int reg, int v) {
        int t = reg - v;
        p = (p & ~C) | (t >= 0 ? C : 0);
        nz(t & 0xFF);
    }

    private void execRead(int v) {
        switch (OP[opcode]) {
            case LDA -> { a = v; nz(a); }
            case LDX -> { x = v; nz(x); }
            case LDY -> { y = v; nz(y); }
            case EOR -> { a ^= v; nz(a); }
            case AND -> { a &= v; nz(a); }
            case ORA -> { a |= v; nz(a); }
            case ADC -> adc(v);
            case SBC -> adc(v ^ 0xFF);
            case CMP -> compare(a, v);
            case CPX -> compare(x, v);
            case CPY -> compare(y, v);
            case BIT -> p = (p & ~(N | V | Z)) | (v & (N | V)) | ((a & v) == 0 ? Z : 0);
            case LAX -> { a = v; x = v; nz(v); }
            case ANC -> {
                a &= v;
                nz(a);
                p = (p & ~C) | (a >> 7);
            }
            case ALR -> {
                a &= v;
                p = (p & ~C) | (a & 1);
                a >>= 1;
                nz(a);
            }
            case ARR -> {
                a = ((a & v) >> 1) | ((p & C) << 7);
                nz(a);
                p = (p & ~(C | V)) | ((a >> 6) & 1) | (((a >> 6) ^ (a >> 5)) & 1) << 6;
            }
            case AXS -> {
                int t = (a & x) - v;
                p = (p & ~C) | (t >= 0 ? C : 0);
                x = t & 0xFF;
                nz(x);
            }
            case LAS -> {
                s &= v;
                a = s;
                x = s;
                nz(s);
            }
            case ANE -> {
                a = (a | 0xEE) & x & v;
                nz(a);
            }
            case LXA -> {
                a = v;
                x = v;
                nz(v);
            }
            default -> {
                // NOP variants read and discard.
            }
        }
    }

    private int storeValue() {
        return switch (OP[opcode]) {
            case STA -> a;
            case STX -> x;
            case STY -> y;
            case SAX -> a & x;
            case SHA -> a & x & hiPlusOne;
            case SHX -> x & hiPlusOne;
            case SHY -> y & hiPlusOne;
            case TAS -> {
                s = a & x;
                yield s & hiPlusOne;
            }
            default -> 0;
        };
    }

    private int execRmw(int v) {
        int r;
        switch (OP[opcode]) {
            case ASL -> {
                p = (p & ~C) | (v >> 7);
                r = (v << 1) & 0xFF;
                nz(r);
            }
            case LSR -> {
                p = (p & ~C) | (v & 1);
                r = v >> 1;
                nz(r);
            }
            case ROL -> {
                r = ((v << 1) | (p & C)) & 0xFF;
                p = (p & ~C) | (v >> 7);
                nz(r);
            }
            case ROR -> {
                r = (v >> 1) | ((p & C) << 7);
                p = (p & ~C) | (v & 1);
                nz(r);
            }
            case INC -> {
                r = (v + 1) & 0xFF;
                nz(r);
            }
            case DEC -> {
                r = (v - 1) & 0xFF;
                nz(r);
            }
            case SLO -> {
                p = (p & ~C) | (v >> 7);
                r = (v << 1) & 0xFF;
                a |= r;
                nz(a);
            }
            case SRE -> {
                p = (p & ~C) | (v & 1);
                r = v >> 1;
                a ^= r;
                nz(a);
            }
            case RLA -> {
                r = ((v << 1) | (p & C)) & 0xFF;
                p = (p & ~C) | (v >> 7);
                a &= r;
                nz(a);
            }
            case RRA -> {
                r = (v >> 1) | ((p & C) << 7);
                p = (p & ~C) | (v & 1);
                adc(r);
            }
            case ISC -> {
                r = (v + 1) & 0xFF;
                adc(r ^ 0xFF);
            }
            case DCP -> {
                r = (v - 1) & 0xFF;
                compare(a, r);
            }
            default -> r = v;
        }
        return r;
    }

    private void execImplied() {
        switch (OP[opcode]) {
            case CLC -> p &= ~C;
            case SEC -> p |= C;
            case CLI -> p &= ~I;
            case SEI -> p |= I;
            case CLV -> p &= ~V;
            case CLD -> p &= ~D;
            case SED -> p |= D;
            case TAX -> { x = a; nz(x); }
            case TXA -> { a = x; nz(a); }
            case TAY -> { y = a; nz(y); }
            case TYA -> { a = y; nz(a); }
            case TSX -> { x = s; nz(x); }
            case TXS -> s = x;
            case INX -> { x = (x + 1) & 0xFF; nz(x); }
            case INY -> { y = (y + 1) & 0xFF; nz(y); }
            case DEX -> { x = (x - 1) & 0xFF; nz(x); }
            case DEY -> { y = (y - 1) & 0xFF; nz(y); }
            case ASL, LSR, ROL, ROR -> a = execRmw(a);
            default -> {
                // NOP
            }
        }
    }

    // ---- accessors (debuggers, nestest, the verifier) ----

    public int a() { return a; }
    public int x() { return x; }
    public int y() { return y; }
    public int s() { return s; }
    /** Status as PHP would push it without B: bit 5 set. */
    public int p() { return p; }
    public int pc() { return pc; }
    /** The address of the instruction being executed (its opcode byte). */
    public int instructionPc() { return opPc; }
    /** The opcode being executed, or 0x100-0x102 for an interrupt sequence, reset, or a fetch. */
    public int opcode() { return opcode; }

    /** Sets registers directly (tests, automation, fault injection). */
    public void setRegisters(int a, int x, int y, int s, int p) {
        this.a = a & 0xFF;
        this.x = x & 0xFF;
        this.y = y & 0xFF;
        this.s = s & 0xFF;
        setP(p);
    }

    /**
     * True when every described field equals {@code o}'s (raw values: the lockstep verifier's
     * per-cycle check, cheaper than two digest terms).
     */
    public boolean sameState(Cpu o) {
        return ((a ^ o.a) | (x ^ o.x) | (y ^ o.y) | (s ^ o.s) | (p ^ o.p) | (pc ^ o.pc) | (addr ^ o.addr) | (dout ^ o.dout)
                | (opPc ^ o.opPc) | (opcode ^ o.opcode) | (step ^ o.step) | (ea ^ o.ea) | (tmp ^ o.tmp) | (hiPlusOne ^ o.hiPlusOne)) == 0
                && write == o.write && nmiLine == o.nmiLine && nmiPending == o.nmiPending && interruptPolled == o.interruptPolled
                && branchPolled == o.branchPolled && jammed == o.jammed;
    }

    /** This component's term of the per-cycle digest: {@code DigestTerm.of(this)}, without the visitor. */
    @Override
    public long digestTerm() {
        return W0 * (((a & 0xFFL) << 48)
            | ((x & 0xFFL) << 40)
            | ((y & 0xFFL) << 32)
            | ((s & 0xFFL) << 24)
            | ((p & 0xFFL) << 16)
            | (pc & 0xFFFFL))
        + W1 * (((opPc & 0xFFFFL) << 41)
            | ((addr & 0xFFFFL) << 25)
            | (DigestKeys.b(write) << 24)
            | ((dout & 0xFFL) << 16)
            | (opcode & 0xFFFFL))
        + W2 * (((step & 0xFFL) << 45)
            | ((ea & 0xFFFFL) << 29)
            | ((tmp & 0xFFFFL) << 13)
            | ((hiPlusOne & 0xFFL) << 5)
            | (DigestKeys.b(nmiLine) << 4)
            | (DigestKeys.b(nmiPending) << 3)
            | (DigestKeys.b(interruptPolled) << 2)
            | (DigestKeys.b(branchPolled) << 1)
            | DigestKeys.b(jammed));
    }

    @Override
    public void state(StateVisitor v) {
        a = v.u8("a", a);
        x = v.u8("x", x);
        y = v.u8("y", y);
        s = v.u8("s", s);
        p = v.u8("p", p);
        pc = v.u16("pc", pc);
        opPc = v.u16("opPc", opPc);
        addr = v.u16("addr", addr);
        write = v.bool("write", write);
        dout = v.u8("dout", dout);
        opcode = v.u16("opcode", opcode);
        step = v.u8("step", step);
        ea = v.u16("ea", ea);
        tmp = v.u16("tmp", tmp);
        hiPlusOne = v.u8("hiPlusOne", hiPlusOne);
        nmiLine = v.bool("nmiLine", nmiLine);
        nmiPending = v.bool("nmiPending", nmiPending);
        interruptPolled = v.bool("interruptPolled", interruptPolled);
        branchPolled = v.bool("branchPolled", branchPolled);
        jammed = v.bool("jammed", jammed);
    }
}
