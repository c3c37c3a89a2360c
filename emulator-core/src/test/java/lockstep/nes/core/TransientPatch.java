package lockstep.nes.core;

import java.lang.reflect.Field;
import lockstep.nes.core.cart.Cartridge;
import lockstep.nes.core.cart.Mapper;
import lockstep.nes.core.digest.CycleDigest;

/**
 * A misbehaving engine whose difference heals: engine B reads one immediate operand of its
 * program from a patched PRG byte (low bit flipped), which makes it differ from engine A for a
 * while, after which the program overwrites whatever differed, so that the two engines are equal
 * again before the frame ends. Found by trying, in the order the program first runs them, the
 * immediate-mode instructions of an NROM program: the first whose difference heals at all (it
 * may last a single cycle: another operand read, the same result), or the first whose
 * difference reaches the CPU RAM (B stores another value, which the program overwrites later in
 * the frame).
 *
 * @param prgOffset  the patched byte's offset in the board's PRG
 * @param firstCycle the first cycle after which the engines differ (stepped cycle by cycle)
 * @param healed     a cycle, later in the same frame, at which they are equal again
 * @param frameEnd   the cycle at which that frame ends (equal there too)
 */
public record TransientPatch(int prgOffset, long firstCycle, long healed, long frameEnd) {

    /**
     * The first transient patch of {@code cart} (an NROM cartridge) within {@code frames} frames
     * (with {@code reachesRam}, the first whose difference reaches the CPU RAM).
     */
    public static TransientPatch find(Cartridge cart, int frames, boolean reachesRam) throws Exception {
        Console solo = Console.create(cart);
        java.util.Set<Integer> tried = new java.util.HashSet<>();
        while (solo.frameAfterCycle() < frames) {
            if (solo.cpu().atInstructionStart()) {
                final int pc = solo.cpu().address();
                final int op = solo.peek(pc);
                if (pc >= 0x8000 && isImmediate(op) && tried.add(pc)) {
                    TransientPatch p = tryPatch(cart, pc + 1, frames, reachesRam);
                    if (p != null) {
                        return p;
                    }
                }
            }
            solo.runCycle();
        }
        throw new AssertionError("no transient difference found in " + frames + " frames");
    }

    /** LDY/CPY/CPX/LDX and ORA/AND/EOR/ADC/LDA/CMP/SBC immediate. */
    private static boolean isImmediate(int op) {
        return op == 0xA0 || op == 0xC0 || op == 0xE0 || op == 0xA2 || (op & 0x1F) == 0x09 && op != 0x89;
    }

    /** Engine B of {@code cart} reading the operand at CPU address {@code address} with its low bit flipped. */
    public static void patch(Console b, int prgOffset) throws ReflectiveOperationException {
        Field prgField = Mapper.class.getDeclaredField("prg");
        prgField.setAccessible(true);
        byte[] prg = ((byte[]) prgField.get(b.mapper())).clone();
        prg[prgOffset] ^= 0x01;
        prgField.set(b.mapper(), prg);
    }

    private static TransientPatch tryPatch(Cartridge cart, int address, int frames, boolean reachesRam)
            throws Exception {
        Console a = Console.create(cart);
        Console b = Console.create(cart);
        int offset = (address - 0x8000) % prgLength(b);
        patch(b, offset);
        CycleDigest da = new CycleDigest(a);
        CycleDigest db = new CycleDigest(b);
        while (!da.differsFrom(db)) {
            if (a.frameAfterCycle() >= frames) {
                return null;
            }
            a.runCycle();
            b.runCycle();
        }
        long first = a.cycles();
        long frame = a.frameAfterCycle();
        long healed = -1;
        boolean ram = a.ram().hash() != b.ram().hash();
        while (a.frameAfterCycle() == frame) {
            a.runCycle();
            b.runCycle();
            ram |= a.ram().hash() != b.ram().hash();
            if (healed < 0 && !da.differsFrom(db)) {
                healed = a.cycles();
            } else if (healed >= 0 && da.differsFrom(db)) {
                return null; // differs again before the frame ends
            }
        }
        return healed < 0 || reachesRam && !ram ? null : new TransientPatch(offset, first, healed, a.cycles());
    }

    private static int prgLength(Console c) throws ReflectiveOperationException {
        Field prgField = Mapper.class.getDeclaredField("prg");
        prgField.setAccessible(true);
        return ((byte[]) prgField.get(c.mapper())).length;
    }
}
