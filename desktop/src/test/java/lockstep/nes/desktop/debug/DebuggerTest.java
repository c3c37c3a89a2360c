package lockstep.nes.desktop.debug;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import lockstep.nes.core.Console;
import lockstep.nes.core.digest.CycleDigest;
import org.junit.jupiter.api.Test;

class DebuggerTest {
    /** The cycle at whose end $0345 first holds $5A, found by stepping a second console. */
    private static long writeCycle() {
        Console c = KnownMachine.program().console();
        while (c.ram().read(0x345) != 0x5A) {
            c.runCycle();
        }
        return c.cycles();
    }

    @Test
    void aWriteBreakpointStopsRightAfterItsCycle() {
        Console c = KnownMachine.program().console();
        Debugger d = new Debugger();
        d.add(new Debugger.Breakpoint(Debugger.Kind.WRITE, 0x0345));
        boolean finished = true;
        for (int i = 0; i < 10 && finished; i++) {
            finished = d.runFrame(c);
        }
        assertFalse(finished, "the breakpoint never stopped the run");
        long expected = writeCycle();
        assertEquals(expected, c.cycles());
        assertEquals(0x5A, c.ram().read(0x345));
        assertEquals("write $0345 at cycle " + expected, d.stopReason());
    }

    @Test
    void aPcBreakpointStopsBeforeItsInstruction() {
        var program = KnownMachine.program();
        Console c = program.console();
        Debugger d = new Debugger();
        int marker = program.symbol("marker");
        d.add(new Debugger.Breakpoint(Debugger.Kind.PC, marker));
        boolean finished = true;
        for (int i = 0; i < 10 && finished; i++) {
            finished = d.runFrame(c);
        }
        assertFalse(finished);
        assertTrue(c.cpu().atInstructionStart());
        assertEquals(marker, c.cpu().pc());
        assertEquals(0, c.ram().read(0x345));
        // Stepping one instruction from there runs LDA #$5A.
        d.stepInstruction(c);
        assertEquals(0x5A, c.cpu().a());
        assertEquals(marker + 2, c.cpu().pc());
    }

    @Test
    void steppingByScanlineAndFrameAndRunningWithBreakpointsChangesNothing() {
        Console debugged = KnownMachine.program().console();
        Debugger d = new Debugger();
        d.add(new Debugger.Breakpoint(Debugger.Kind.READ, 0x7FFF)); // never hit: forces cycle steps
        int line = debugged.ppu().scanline();
        assertTrue(d.stepScanline(debugged));
        assertEquals((line + 1) % 262, debugged.ppu().scanline());
        long frame = debugged.frame();
        assertTrue(d.stepFrame(debugged));
        assertEquals(frame + 1, debugged.frame());
        for (int i = 0; i < 3; i++) {
            assertTrue(d.runFrame(debugged));
        }
        Console plain = KnownMachine.program().console();
        while (plain.cycles() < debugged.cycles()) {
            plain.runCycle();
        }
        assertEquals(new CycleDigest(plain).digest(), new CycleDigest(debugged).digest());
    }

    @Test
    void theHexViewFollowsWrites() {
        var program = KnownMachine.program();
        HexView hex = new HexView();
        hex.update(MachineView.of(program.console()));
        program.run(10);
        MachineView m = MachineView.of(program.console());
        hex.update(m);
        assertTrue(hex.changed(0x345));
        assertTrue(hex.start() <= 0x340 && hex.start() + HexView.ROWS * 16 > 0x345, "start " + hex.start());
        String row = hex.lines(m).get((0x340 - hex.start()) / 16);
        assertTrue(row.startsWith("0340:"), row);
        assertTrue(row.contains(" 5A*"), row);
        hex.pin(0x0100);
        hex.update(m);
        assertEquals(0x0100, hex.start());
    }
}
