package lockstep.nes.core.cpu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** {@link Cpu#haltedOnRead}: the unstable stores halted by a DMA on the cycle before their write. */
class CpuHaltTest {
    private final int[] memory = new int[0x10000];
    private final Cpu cpu = new Cpu();

    /** Runs the instruction at $8000 cycle by cycle, halting the CPU before cycle {@code haltAt} (1 = the fetch; 0: never). */
    private void run(int haltAt, int... code) {
        for (int i = 0; i < code.length; i++) {
            memory[0x8000 + i] = code[i];
        }
        cpu.jump(0x8000);
        int cycle = 1;
        do {
            if (cycle == haltAt) {
                cpu.haltedOnRead();
                cpu.haltedOnRead(); // every DMA cycle calls it
            }
            int data = 0;
            if (cpu.isWrite()) {
                memory[cpu.address()] = cpu.dataOut();
            } else {
                data = memory[cpu.address()];
            }
            cpu.tick(data);
            cycle++;
        } while (!cpu.atInstructionStart());
    }

    private void registers(int a, int x, int y) {
        cpu.setRegisters(a, x, y, 0xFD, Cpu.U | Cpu.I);
    }

    @Test
    void shaIndirectYHaltedOnItsDummyReadStoresAAndXAlone() {
        memory[0x10] = 0x00;
        memory[0x11] = 0x03;
        registers(0xFF, 0xFF, 0x10);
        run(5, 0x93, 0x10);
        assertEquals(0xFF, memory[0x0310]);

        registers(0xFF, 0xFF, 0x10);
        run(0, 0x93, 0x10);
        assertEquals(0x04, memory[0x0310], "without a halt: A & X & (H + 1)");
    }

    @Test
    void aHaltOnAnEarlierCycleKeepsTheAnd() {
        registers(0xFF, 0xFF, 0x10);
        run(3, 0x9E, 0x00, 0x03); // SHX $0300,Y halted on its high-byte fetch
        assertEquals(0x04, memory[0x0310]);
    }

    @Test
    void aHaltedPageCrossingStoreGoesToTheRegistersPage() {
        registers(0xFF, 0x07, 0x20);
        run(4, 0x9E, 0xF0, 0x02); // SHX $02F0,Y
        assertEquals(0x07, memory[0x0710]);
        assertEquals(0, memory[0x0310]);

        registers(0xFF, 0x07, 0x20);
        run(0, 0x9E, 0xF0, 0x02);
        assertEquals(0x03, memory[0x0310], "without a halt: X & (H + 1), also the target's high byte");
    }

    @Test
    void tasHaltedSetsSToAAndXAndStoresIt() {
        registers(0xF7, 0x7F, 0x10);
        run(4, 0x9B, 0x00, 0x03); // TAS $0300,Y
        assertEquals(0x77, cpu.s());
        assertEquals(0x77, memory[0x0310]);
        assertEquals(0xF7, cpu.a());
        assertEquals(0x7F, cpu.x());
        assertEquals(Cpu.U | Cpu.I, cpu.p(), "no flag changes");
    }

    @Test
    void shyHaltedStoresYAlone() {
        registers(0x00, 0x10, 0xFF);
        run(4, 0x9C, 0x00, 0x03); // SHY $0300,X
        assertEquals(0xFF, memory[0x0310]);
    }

    @Test
    void otherStoresAreUnchangedByAHalt() {
        registers(0xAB, 0x10, 0x10);
        run(4, 0x9D, 0x00, 0x03); // STA $0300,X
        assertEquals(0xAB, memory[0x0310]);
    }
}
