package lockstep.nes.core.apu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import lockstep.nes.core.RomHarness;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Test ROMs that check the APU through the $6000 protocol or blargg's 2005 result byte. */
class ApuRomTest {

    @ParameterizedTest
    @ValueSource(strings = {
        "apu_test/rom_singles/1-len_ctr.nes",
        "apu_test/rom_singles/2-len_table.nes",
        "apu_test/rom_singles/3-irq_flag.nes",
        "apu_test/rom_singles/4-jitter.nes",
        "apu_test/rom_singles/5-len_timing.nes",
        "apu_test/rom_singles/6-irq_flag_timing.nes",
        "apu_test/rom_singles/7-dmc_basics.nes",
        "apu_test/rom_singles/8-dmc_rates.nes",
        "apu_reset/4015_cleared.nes",
        "apu_reset/4017_timing.nes",
        "apu_reset/4017_written.nes",
        "apu_reset/irq_flag_cleared.nes",
        "apu_reset/len_ctrs_enabled.nes",
        "apu_reset/works_immediately.nes",
        "cpu_interrupts_v2/rom_singles/1-cli_latency.nes",
        "cpu_interrupts_v2/rom_singles/2-nmi_and_brk.nes",
        "cpu_interrupts_v2/rom_singles/3-nmi_and_irq.nes",
        "cpu_interrupts_v2/rom_singles/4-irq_and_dma.nes",
        "cpu_interrupts_v2/rom_singles/5-branch_delays_irq.nes",
        "instr_timing/rom_singles/1-instr_timing.nes",
        "instr_timing/rom_singles/2-branch_timing.nes",
        "instr_misc/rom_singles/01-abs_x_wrap.nes",
        "instr_misc/rom_singles/02-branch_wrap.nes",
        "instr_misc/rom_singles/03-dummy_reads.nes",
        "instr_misc/rom_singles/04-dummy_reads_apu.nes",
    })
    void protocol6000(String rom) throws Exception {
        RomHarness.Outcome o = RomHarness.run6000(rom, 60 * 60);
        assertEquals(0, o.code(), rom + " -> " + o);
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "01.len_ctr.nes", "02.len_table.nes", "03.irq_flag.nes", "04.clock_jitter.nes",
        "05.len_timing_mode0.nes", "06.len_timing_mode1.nes", "07.irq_flag_timing.nes",
        "08.irq_timing.nes", "09.reset_timing.nes", "10.len_halt_timing.nes",
        "11.len_reload_timing.nes",
    })
    void blargg2005(String rom) throws Exception {
        RomHarness.Outcome o = RomHarness.runZeroPage("blargg_apu_2005.07.30/" + rom, 0xF0, 60 * 20);
        assertEquals(1, o.code(), rom + " -> " + o);
    }
}
