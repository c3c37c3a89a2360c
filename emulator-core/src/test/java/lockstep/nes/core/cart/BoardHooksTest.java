package lockstep.nes.core.cart;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

import lockstep.nes.state.StateVisitor;
import org.junit.jupiter.api.Test;

/**
 * Every board declares exactly the hooks it overrides ({@link BoardHooks}): the console and the
 * PPU trust the declaration, so a board that overrides {@code cpuCycle} and forgets to declare
 * it would never be clocked. Overrides are found by reflection here, in the test only.
 */
class BoardHooksTest {
    /** Each hook bit and the methods whose override it stands for. */
    private static final Object[][] HOOKS = {
        {BoardHooks.CPU_CYCLE, new String[] {"cpuCycle"}},
        {BoardHooks.IRQ, new String[] {"irq"}},
        {BoardHooks.CPU_READ, new String[] {"cpuRead"}},
        {BoardHooks.PPU_BUS, new String[] {"ppuRead", "ppuWrite", "ppuAddress"}},
        {BoardHooks.AUDIO, new String[] {"expansionAudio"}},
        {BoardHooks.PPU_REGISTERS, new String[] {"ppuRegisterWrite"}},
    };

    @Test
    void everyBoardDeclaresTheHooksItOverrides() throws Exception {
        Map<String, Mapper> built = BoardClasses.built();
        List<String> problems = new ArrayList<>();
        for (Class<?> c : BoardClasses.concrete()) {
            Mapper board = built.get(c.getName());
            assertNotNull(board, c.getName() + ": no mapper number builds it");
            problems.addAll(check(board));
        }
        assertTrue(built.size() >= 40, "boards built: " + built.keySet());
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    @Test
    void aBoardThatForgetsToDeclareAHookIsCaught() {
        Cartridge cart = new Cartridge("forgetful.nes", new byte[32768], new byte[8192], 0,
                Mirroring.HORIZONTAL, false, 0, 0);
        assertEquals(List.of(Forgetful.class.getName() + " overrides cpuCycle but does not declare it",
                Forgetful.class.getName() + " declares IRQ but overrides none of [irq]"), check(new Forgetful(cart)));
    }

    /**
     * The console reads $8000-$FFFF itself, through {@link Mapper#plainRomPages}, on every board
     * that gives a page table: there that read must be the board's own {@code cpuRead}, after
     * any bank switching. Every board without CPU_READ gives one, and of those that decode reads
     * the ones that declare CPU_READ_BELOW_8000 (MMC3, FME-7, VRC2/4, Namco 163, X1-005), which
     * is a refinement of CPU_READ and meaningless without it.
     */
    @Test
    void plainRomReadsAreTheBoardsReads() {
        Random r = new Random(5);
        List<String> problems = new ArrayList<>();
        for (Mapper board : BoardClasses.built().values()) {
            if (board.hasHook(BoardHooks.CPU_READ_BELOW_8000) && !board.hasHook(BoardHooks.CPU_READ)) {
                problems.add(board.getClass().getName() + " declares CPU_READ_BELOW_8000 without CPU_READ");
            }
            final int[] pages = board.plainRomPages();
            if (pages == null) {
                if (!board.hasHook(BoardHooks.CPU_READ)) {
                    problems.add(board.getClass().getName() + " decodes no reads but gives no page table");
                }
                continue;
            }
            for (int i = 0; i < 2000 && problems.isEmpty(); i++) {
                // Registers below $6000 (MMC5's, Namco 163's), at $6000-$7FFF and above $8000 alike.
                final int where = switch (r.nextInt(3)) {
                    case 0 -> 0x4020 + r.nextInt(0x2000 - 0x20);
                    case 1 -> 0x6000 + r.nextInt(0x2000);
                    default -> 0x8000 + r.nextInt(0x8000);
                };
                board.cpuWrite(where, r.nextInt(256));
                for (int k = 0; k < 16; k++) {
                    final int addr = 0x8000 + r.nextInt(0x8000);
                    final int plain = board.prgRom()[pages[(addr >> 13) & 3] | (addr & 0x1FFF)] & 0xFF;
                    if (plain != board.cpuRead(addr)) {
                        problems.add(board.getClass().getName() + " reads $" + Integer.toHexString(addr)
                                + " otherwise than its page table says");
                        break;
                    }
                }
            }
        }
        assertTrue(problems.isEmpty(), String.join("\n", problems));
    }

    /** What is wrong with {@code board}'s declaration, one line per hook. */
    private static List<String> check(Mapper board) {
        List<String> problems = new ArrayList<>();
        for (Object[] hook : HOOKS) {
            int bit = (Integer) hook[0];
            String[] methods = (String[]) hook[1];
            String overridden = null;
            for (String m : methods) {
                if (overrides(board.getClass(), m)) {
                    overridden = m;
                }
            }
            if (overridden != null && !board.hasHook(bit)) {
                problems.add(board.getClass().getName() + " overrides " + overridden + " but does not declare it");
            } else if (overridden == null && board.hasHook(bit)) {
                problems.add(board.getClass().getName() + " declares " + name(bit) + " but overrides none of "
                        + java.util.Arrays.toString(methods));
            }
        }
        return problems;
    }

    private static String name(int bit) {
        return switch (bit) {
            case BoardHooks.CPU_CYCLE -> "CPU_CYCLE";
            case BoardHooks.IRQ -> "IRQ";
            case BoardHooks.CPU_READ -> "CPU_READ";
            case BoardHooks.AUDIO -> "AUDIO";
            case BoardHooks.PPU_REGISTERS -> "PPU_REGISTERS";
            default -> "PPU_BUS";
        };
    }

    private static boolean overrides(Class<?> board, String name) {
        Class<?>[] parameters = null;
        for (java.lang.reflect.Method m : Mapper.class.getMethods()) {
            if (m.getName().equals(name)) {
                parameters = m.getParameterTypes();
            }
        }
        assertNotNull(parameters, name);
        for (Class<?> c = board; c != Mapper.class; c = c.getSuperclass()) {
            try {
                c.getDeclaredMethod(name, parameters);
                return true;
            } catch (NoSuchMethodException e) {
                // not here: look in the superclass
            }
        }
        return false;
    }

    /** Overrides cpuCycle without declaring it, and declares IRQ without overriding irq. */
    private static final class Forgetful extends Mapper {
        Forgetful(Cartridge cart) {
            super(cart);
        }

        @Override
        protected int declaredHooks() {
            return BoardHooks.IRQ;
        }

        @Override
        public void cpuCycle() {
        }

        @Override
        public void cpuWrite(int addr, int value) {
        }

        @Override
        protected void powerOn() {
        }

        @Override
        protected void updateBanks() {
        }

        @Override
        protected void registers(StateVisitor s) {
        }
    }
}
