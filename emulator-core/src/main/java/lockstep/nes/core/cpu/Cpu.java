package lockstep.nes.core.cpu;

import lockstep.nes.state.NotState;

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
 *
 * <p>The operations on the registers are {@link Operations}; {@link #runInstruction} runs a
 * whole instruction at once ({@link WholeInstruction}, the fast path of {@code tick}). Both
 * work on the fields below, which are package-private for them.
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
    int a;
    int x;
    int y;
    int s;
    /** Status, with bit 5 always set and B (bit 4) never held. */
    int p = U | I;
    int pc;

    // Pins: the access to perform this cycle.
    int addr;
    boolean write;
    int dout;

    // Instruction in progress.
    /** The address the current instruction's opcode was fetched from. */
    int opPc;
    int opcode = OP_RESET;
    int step;
    /** Effective address (or its low byte while it is being fetched). */
    int ea;
    /** Operand / pointer scratch. */
    int tmp;
    /** The high byte of an indexed base address, +1 (for the SHA/SHX/SHY/TAS stores). */
    int hiPlusOne;

    // Interrupt lines and polling.
    boolean nmiLine;
    /** The NMI edge detector's latch: set on a high-to-low edge of /NMI, cleared when taken. */
    boolean nmiPending;
    /** An interrupt was pending at the end of the last cycle (NMI latched, or IRQ with I clear). */
    boolean interruptPolled;
    /** The poll result kept by a taken branch from the end of its operand cycle. */
    boolean branchPolled;
    boolean jammed;
    // For the polls after quiet cycles ({@link Bus#quietRead}): /IRQ as the last poll saw it,
    // valid when linesSeen. A cache of the console's line, not state: a power-on, reset or any
    // state visit (a load, a fault's poke) clears linesSeen, so the next poll asks the lines.
    @NotState("poll cache")
    boolean irqLine;
    @NotState("poll cache validity")
    boolean linesSeen;

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
        linesSeen = false;
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

    /** A, X, Y, S, P and PC packed in one long (the lockstep verifier's per-cycle record). */
    public long registers() {
        return ((long) a << 48) | ((long) x << 40) | ((long) y << 32) | ((long) s << 24) | ((long) p << 16) | pc;
    }

    /** True when the coming cycle starts an IRQ or NMI sequence (its discarded opcode fetch). */
    public boolean atInterruptStart() {
        return opcode == OP_INT && step == 0;
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
        if (nmi != nmiLine) {
            // A high-to-low edge of /NMI latches; the line itself changes only a few times a frame.
            nmiLine = nmi;
            if (nmi) {
                nmiPending = true;
            }
        }
        irqLine = irq;
        linesSeen = true;
        interruptPolled = nmiPending || (irq && (p & I) == 0);
    }

    // ---- dispatch ----
    //
    // One cycle is one dense switch on (bus pattern, step): DISPATCH[opcode] is the pattern
    // times 16, STEP_CODE[step] folds the step numbers in use (0-6 for the addressing cycles,
    // 10/20/30-32 for the shared operand phase, 100 for reset's extra cycle) into 0-12, and
    // ACTION maps each pair to itself when the pattern uses that step, else to the pattern's
    // last cycle (a step a pattern does not use is only reachable by poking state; the last
    // cycle is what the step-by-step code this replaced did with it).

    /** The operand-phase step codes: read, write, and the three read-modify-write cycles. */
    private static final int S10 = 7, S20 = 8, S30 = 9, S31 = 10, S32 = 11;
    /** Reset's extra dummy read (step 100). */
    private static final int S100 = 12;
    /** A step number no bus pattern uses. */
    private static final int S_OTHER = 13;
    /** The opcode fetch, as a bus pattern after the 20 of {@link Opcodes}. */
    private static final int FETCH = 20;

    private static final int[] DISPATCH = new int[512];
    private static final int[] STEP_CODE = new int[256];
    private static final short[] ACTION = new short[(FETCH + 1) << 4];

    static {
        java.util.Arrays.fill(DISPATCH, JAM << 4);
        for (int op = 0; op < 0x102; op++) {
            DISPATCH[op] = MODE[op] << 4;
        }
        DISPATCH[OP_FETCH] = FETCH << 4;
        java.util.Arrays.fill(STEP_CODE, S_OTHER);
        for (int st = 0; st <= 6; st++) {
            STEP_CODE[st] = st;
        }
        STEP_CODE[10] = S10;
        STEP_CODE[20] = S20;
        STEP_CODE[30] = S30;
        STEP_CODE[31] = S31;
        STEP_CODE[32] = S32;
        STEP_CODE[100] = S100;
        // Per pattern: the step codes it uses, the last one being its last cycle.
        uses(FETCH, 0);
        uses(IMP, 1);
        uses(IMM, 1);
        usesWithOperand(ZP, 1);
        usesWithOperand(ZPX, 1, 2);
        usesWithOperand(ZPY, 1, 2);
        usesWithOperand(ABS, 1, 2);
        usesWithOperand(ABX, 1, 2, 3);
        usesWithOperand(ABY, 1, 2, 3);
        usesWithOperand(IZX, 1, 2, 3, 4);
        usesWithOperand(IZY, 1, 2, 3, 4);
        uses(REL, 1, 2, 3);
        uses(JMP, 1, 2);
        uses(JMI, 1, 2, 3, 4);
        uses(JSR, 1, 2, 3, 4, 5);
        uses(RTS, 1, 2, 3, 4, 5);
        uses(RTI, 1, 2, 3, 4, 5);
        uses(BRK, 0, S100, 1, 2, 3, 4, 5, 6);
        uses(PSH, 1, 2);
        uses(PUL, 1, 2, 3);
        uses(JAM, 1);
    }

    /** A memory pattern: its addressing steps, then the operand phase (ending with step 20's "done"). */
    private static void usesWithOperand(int pattern, int... addressing) {
        int[] codes = java.util.Arrays.copyOf(addressing, addressing.length + 5);
        System.arraycopy(new int[] {S10, S30, S31, S32, S20}, 0, codes, addressing.length, 5);
        uses(pattern, codes);
    }

    private static void uses(int pattern, int... codes) {
        int base = pattern << 4;
        int last = base | codes[codes.length - 1];
        for (int c = 0; c < 16; c++) {
            ACTION[base | c] = (short) last;
        }
        for (int c : codes) {
            ACTION[base | c] = (short) (base | c);
        }
    }

    /** Completes the current cycle with the value read (ignored for writes). */
    public void tick(int data) {
        switch (ACTION[DISPATCH[opcode & 0x1FF] + STEP_CODE[step & 0xFF]]) {
            case FETCH << 4 -> {
                opcode = data;
                opPc = pc;
                pc = (pc + 1) & 0xFFFF;
                step = 1;
                read(pc);
            }

            // Implied / accumulator (step 1 was the dummy read of the next byte) and immediate.
            case IMP << 4 | 1 -> {
                Operations.implied(this);
                done(interruptPolled);
            }
            case IMM << 4 | 1 -> {
                incPc();
                Operations.load(this, data);
                done(interruptPolled);
            }

            // Addressing cycles of the memory patterns.
            case ZP << 4 | 1 -> {
                incPc();
                ea = data;
                beginOperand();
            }
            case ZPX << 4 | 1, ZPY << 4 | 1 -> {
                incPc();
                ea = data;
                read(ea);
                step = 2;
            }
            case ZPX << 4 | 2 -> {
                ea = (ea + x) & 0xFF;
                beginOperand();
            }
            case ZPY << 4 | 2 -> {
                ea = (ea + y) & 0xFF;
                beginOperand();
            }
            case ABS << 4 | 1, ABX << 4 | 1, ABY << 4 | 1 -> {
                incPc();
                ea = data;
                read(pc);
                step = 2;
            }
            case ABS << 4 | 2 -> {
                incPc();
                ea |= data << 8;
                beginOperand();
            }
            case ABX << 4 | 2 -> {
                incPc();
                indexBase(data, x);
            }
            case ABY << 4 | 2 -> {
                incPc();
                indexBase(data, y);
            }
            // After the dummy read at the un-carried address.
            case ABX << 4 | 3, ABY << 4 | 3, IZY << 4 | 4 -> beginOperand();
            case IZX << 4 | 1, IZY << 4 | 1 -> {
                incPc();
                tmp = data;
                read(tmp);
                step = 2;
            }
            case IZX << 4 | 2 -> {
                tmp = (tmp + x) & 0xFF;
                read(tmp);
                step = 3;
            }
            case IZX << 4 | 3 -> {
                ea = data;
                read((tmp + 1) & 0xFF);
                step = 4;
            }
            case IZX << 4 | 4 -> {
                ea |= data << 8;
                beginOperand();
            }
            case IZY << 4 | 2 -> {
                ea = data;
                read((tmp + 1) & 0xFF);
                step = 3;
            }
            case IZY << 4 | 3 -> indexBase(data, y);

            // The shared operand phase: 10 read, 20 write, 30-32 read-modify-write.
            case ZP << 4 | S10, ZPX << 4 | S10, ZPY << 4 | S10, ABS << 4 | S10, ABX << 4 | S10,
                    ABY << 4 | S10, IZX << 4 | S10, IZY << 4 | S10 -> {
                Operations.load(this, data);
                done(interruptPolled);
            }
            case ZP << 4 | S30, ZPX << 4 | S30, ZPY << 4 | S30, ABS << 4 | S30, ABX << 4 | S30,
                    ABY << 4 | S30, IZX << 4 | S30, IZY << 4 | S30 -> {
                // The dummy write of the unmodified value.
                tmp = data;
                write(ea, tmp);
                step = 31;
            }
            case ZP << 4 | S31, ZPX << 4 | S31, ZPY << 4 | S31, ABS << 4 | S31, ABX << 4 | S31,
                    ABY << 4 | S31, IZX << 4 | S31, IZY << 4 | S31 -> {
                tmp = Operations.modify(this, tmp);
                write(ea, tmp);
                step = 32;
            }
            // The cycle after a store or a read-modify-write's last write.
            case ZP << 4 | S20, ZPX << 4 | S20, ZPY << 4 | S20, ABS << 4 | S20, ABX << 4 | S20,
                    ABY << 4 | S20, IZX << 4 | S20, IZY << 4 | S20,
                    ZP << 4 | S32, ZPX << 4 | S32, ZPY << 4 | S32, ABS << 4 | S32, ABX << 4 | S32,
                    ABY << 4 | S32, IZX << 4 | S32, IZY << 4 | S32 -> done(interruptPolled);

            // Branches.
            case REL << 4 | 1 -> {
                incPc();
                if (!Operations.branchTaken(this)) {
                    done(interruptPolled);
                } else {
                    // Taken: interrupts are polled here (end of the operand cycle), not at the
                    // end of the next cycle.
                    branchPolled = interruptPolled;
                    tmp = data;
                    read(pc);
                    step = 2;
                }
            }
            case REL << 4 | 2 -> {
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

            // Jumps and subroutines.
            case JMP << 4 | 1 -> {
                incPc();
                ea = data;
                read(pc);
                step = 2;
            }
            case JMI << 4 | 1 -> {
                incPc();
                tmp = data;
                read(pc);
                step = 2;
            }
            case JMI << 4 | 2 -> {
                incPc();
                tmp |= data << 8;
                read(tmp);
                step = 3;
            }
            case JMI << 4 | 3 -> {
                ea = data;
                // The pointer's high byte is fetched without carry into its page.
                read((tmp & 0xFF00) | ((tmp + 1) & 0xFF));
                step = 4;
            }
            case JSR << 4 | 1 -> {
                incPc();
                ea = data;
                read(0x100 | s);
                step = 2;
            }
            case JSR << 4 | 2 -> {
                write(0x100 | s, pc >> 8);
                s = (s - 1) & 0xFF;
                step = 3;
            }
            case JSR << 4 | 3 -> {
                write(0x100 | s, pc & 0xFF);
                s = (s - 1) & 0xFF;
                step = 4;
            }
            case JSR << 4 | 4 -> {
                read(pc);
                step = 5;
            }
            case RTS << 4 | 1, RTI << 4 | 1, PUL << 4 | 1 -> {
                read(0x100 | s);
                step = 2;
            }
            case RTS << 4 | 2, RTI << 4 | 2, PUL << 4 | 2 -> {
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 3;
            }
            case RTS << 4 | 3 -> {
                ea = data;
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 4;
            }
            case RTS << 4 | 4 -> {
                pc = ea | (data << 8);
                read(pc);
                step = 5;
            }
            case RTI << 4 | 3 -> {
                Operations.setP(this, data);
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 4;
            }
            case RTI << 4 | 4 -> {
                ea = data;
                s = (s + 1) & 0xFF;
                read(0x100 | s);
                step = 5;
            }

            // Stack.
            case PSH << 4 | 1 -> {
                int value = opcode == 0x08 ? p | B : a;
                write(0x100 | s, value);
                s = (s - 1) & 0xFF;
                step = 2;
            }

            // BRK, IRQ, NMI and reset share one 7-cycle sequence (reset has one more cycle at
            // its start and reads instead of writing the stack). Step 0 is the opcode fetch
            // cycle of an IRQ/NMI/reset, whose value is discarded.
            case BRK << 4 -> {
                read(pc);
                step = opcode == OP_RESET ? 100 : 1;
            }
            case BRK << 4 | S100 -> {
                read(pc);
                step = 1;
            }
            case BRK << 4 | 1 -> {
                if (opcode == 0x00) {
                    incPc();
                }
                stackAccess(pc >> 8);
                step = 2;
            }
            case BRK << 4 | 2 -> {
                stackAccess(pc & 0xFF);
                step = 3;
            }
            case BRK << 4 | 3 -> {
                stackAccess(opcode == 0x00 ? p | B : p);
                step = 4;
            }
            case BRK << 4 | 4 -> {
                // The vector is chosen after the P push: an NMI seen by then takes over BRK/IRQ.
                if (opcode == OP_RESET) {
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
            case BRK << 4 | 5 -> {
                ea = data;
                read(tmp + 1);
                step = 6;
            }
            case REL << 4 | 3 -> {
                pc = ea;
                done(branchPolled || interruptPolled);
            }
            case JMP << 4 | 2, JMI << 4 | 4, JSR << 4 | 5, RTI << 4 | 5 -> {
                pc = ea | (data << 8);
                done(interruptPolled);
            }
            case RTS << 4 | 5 -> {
                incPc();
                done(interruptPolled);
            }
            case BRK << 4 | 6 -> {
                pc = ea | (data << 8);
                // The first instruction of a handler always runs before another interrupt.
                done(false);
            }
            case PSH << 4 | 2 -> done(interruptPolled);
            case PUL << 4 | 3 -> {
                if (opcode == 0x28) {
                    Operations.setP(this, data);
                } else {
                    a = data;
                    Operations.nz(this, a);
                }
                done(interruptPolled);
            }
            case JAM << 4 | 1 -> jam();
            default -> throw new AssertionError("ACTION maps every pattern and step to a case");
        }
    }

    /**
     * The DMA unit halts the CPU on its coming read (RDY low). An unstable store (SHA, SHX, SHY,
     * TAS) halted on its dummy read, the cycle before its write, loses the AND with the base
     * address's high byte + 1: it stores the register alone ({@code A & X} for SHA and TAS, whose
     * S is {@code A & X} either way), and where the index crossed a page the target's high byte
     * is that value. Any other cycle is unchanged. Called on every DMA cycle (a repeat changes
     * nothing).
     */
    public void haltedOnRead() {
        if (opcode < 0x100 && !write && Operations.isUnstableStore(OP[opcode])
                && step == (MODE[opcode] == IZY ? 4 : 3)) {
            hiPlusOne = 0xFF;
            final int index = MODE[opcode] == ABX ? x : y;
            if ((addr & 0xFF) < index) {
                // The index carried out of the low byte (addr is the un-carried dummy read).
                ea = (Operations.store(this) << 8) | (addr & 0xFF);
            }
        }
    }

    // ---- whole instructions ----

    /** The most bus cycles {@link #runInstruction} makes in one call. */
    public static final int MAX_INSTRUCTION_CYCLES = 8;

    /**
     * Runs the instruction whose opcode fetch is the coming cycle as a whole, through
     * {@code bus}: the same accesses in the same order, the same interrupt polls after every
     * cycle, and the same state afterwards (internal latches included) as {@link #tick} called
     * once per cycle. The caller guarantees that nothing would interrupt it in between (no DMA
     * halt on any of its read cycles, no stop between cycles). Opcodes not done here as a whole
     * (BRK, JAM, the unstable stores) run only their fetch cycle, leaving the rest to
     * {@link #tick}. Call only when {@link #atInstructionStart()} and the coming cycle reads.
     * The fast path of {@link #tick}: {@link WholeInstruction}.
     */
    public void runInstruction(Bus bus) {
        WholeInstruction.run(this, bus);
    }

    /**
     * Runs the IRQ or NMI sequence that the coming cycle starts (seven cycles, from the
     * discarded opcode fetch to the vector's high byte) as a whole through {@code bus}, on the
     * same terms as {@link #runInstruction}: the same accesses, polls and state afterwards as
     * {@link #tick} once per cycle, an NMI seen by the end of the P push taking the vector.
     * Call only when {@link #atInterruptStart()}.
     */
    public void runInterrupt(Bus bus) {
        WholeInstruction.interrupt(this, bus);
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
        opcode = polled ? OP_INT : OP_FETCH;
        step = 0;
        read(pc);
    }

    // ---- addressing ----

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
            if (kind == WRITE && partial != ea && Operations.isUnstableStore(OP[opcode])) {
                // The carry into the high byte is ANDed with the stored value.
                ea = (Operations.store(this) << 8) | (ea & 0xFF);
            }
            read(partial);
            // Remember that the next step fixes the address (step 3 for abs, 4 for (ind),Y).
            step++;
        }
    }

    /** The effective address is known: start the operand access. */
    private void beginOperand() {
        switch (KIND[opcode]) {
            case READ -> {
                read(ea);
                step = 10;
            }
            case WRITE -> {
                write(ea, Operations.store(this));
                step = 20;
            }
            default -> {
                read(ea);
                step = 30;
            }
        }
    }

    /** One of the three stack cycles of an interrupt sequence: a push, or a read on reset. */
    private void stackAccess(int value) {
        if (opcode == OP_RESET) {
            read(0x100 | s);
        } else {
            write(0x100 | s, value);
        }
        s = (s - 1) & 0xFF;
    }

    private void jam() {
        // KIL: the CPU stops; the bus keeps reading $FFFF and interrupts are ignored.
        jammed = true;
        read(0xFFFF);
        step = 1;
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
        Operations.setP(this, p);
    }

    /**
     * True when every described field equals {@code o}'s (raw values: the lockstep verifier's
     * per-cycle check, cheaper than two digest terms).
     */
    public boolean sameState(Cpu o) {
        // One branch: the ints and the flags are each combined without short-circuits.
        final int ints = (a ^ o.a) | (x ^ o.x) | (y ^ o.y) | (s ^ o.s) | (p ^ o.p) | (pc ^ o.pc) | (addr ^ o.addr)
                | (dout ^ o.dout) | (opPc ^ o.opPc) | (opcode ^ o.opcode) | (step ^ o.step) | (ea ^ o.ea) | (tmp ^ o.tmp)
                | (hiPlusOne ^ o.hiPlusOne);
        final boolean flags = (write ^ o.write) | (nmiLine ^ o.nmiLine) | (nmiPending ^ o.nmiPending)
                | (interruptPolled ^ o.interruptPolled) | (branchPolled ^ o.branchPolled) | (jammed ^ o.jammed);
        return ints == 0 & !flags;
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
        opcode = v.u16("opcode", opcode, 0x102);
        step = v.u8("step", step, 100);
        ea = v.u16("ea", ea);
        tmp = v.u16("tmp", tmp);
        hiPlusOne = v.u8("hiPlusOne", hiPlusOne);
        nmiLine = v.bool("nmiLine", nmiLine);
        nmiPending = v.bool("nmiPending", nmiPending);
        interruptPolled = v.bool("interruptPolled", interruptPolled);
        branchPolled = v.bool("branchPolled", branchPolled);
        jammed = v.bool("jammed", jammed);
        linesSeen = false;
    }
}
