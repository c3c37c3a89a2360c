package lockstep.nes.core.cpu;

/**
 * The 2A03 opcode matrix: for each opcode its bus pattern (addressing mode) and operation.
 * Cycle counts are not listed anywhere: they follow from the bus pattern.
 */
final class Opcodes {
    // Bus patterns, numbered from the least used up: C2 parses WholeInstruction.run's switch on
    // them from the highest number down and inlines its cases until the compile's budget is
    // spent, so the patterns most instructions use come first (docs/design/cpu.md).
    static final int JAM = 0;
    static final int BRK = 1;    // BRK, and the IRQ/NMI/reset sequences
    static final int JMI = 2;    // JMP (ind)
    static final int RTI = 3;
    static final int JMP = 4;
    static final int PUL = 5;
    static final int PSH = 6;
    static final int RTS = 7;
    static final int JSR = 8;
    static final int IZX = 9;
    static final int IZY = 10;
    static final int ZPY = 11;
    static final int ZPX = 12;
    static final int ABY = 13;
    static final int ABX = 14;
    static final int ABS = 15;
    static final int REL = 16;
    static final int ZP = 17;
    static final int IMM = 18;
    static final int IMP = 19;   // implied / accumulator: one dummy read

    // Operation kinds: how the addressed operand is accessed.
    static final int READ = 0;
    static final int WRITE = 1;
    static final int RMW = 2;

    // Operations.
    static final int NOP = 0;
    // read
    static final int LDA = 1, LDX = 2, LDY = 3, EOR = 4, AND = 5, ORA = 6, ADC = 7, SBC = 8,
            CMP = 9, CPX = 10, CPY = 11, BIT = 12, LAX = 13, ANC = 14, ALR = 15, ARR = 16,
            AXS = 17, LAS = 18, ANE = 19, LXA = 20;
    // write
    static final int STA = 21, STX = 22, STY = 23, SAX = 24, SHA = 25, SHX = 26, SHY = 27, TAS = 28;
    // read-modify-write (also used with IMP for the accumulator forms)
    static final int ASL = 29, LSR = 30, ROL = 31, ROR = 32, INC = 33, DEC = 34, SLO = 35,
            SRE = 36, RLA = 37, RRA = 38, ISC = 39, DCP = 40;
    // implied
    static final int CLC = 41, SEC = 42, CLI = 43, SEI = 44, CLV = 45, CLD = 46, SED = 47,
            TAX = 48, TXA = 49, TAY = 50, TYA = 51, TSX = 52, TXS = 53, INX = 54, INY = 55,
            DEX = 56, DEY = 57;
    // branches (condition encoded in the opcode)
    static final int BRANCH = 58;
    // stack
    static final int PHA = 59, PHP = 60, PLA = 61, PLP = 62;
    static final int OTHER = 63;

    /** Pseudo-opcode: the IRQ/NMI sequence. */
    static final int OP_INT = 0x100;
    /** Pseudo-opcode: the reset sequence. */
    static final int OP_RESET = 0x101;
    /** Pseudo-opcode: the opcode fetch cycle of the next instruction. */
    static final int OP_FETCH = 0x102;

    static final int[] MODE = new int[0x103];
    static final int[] OP = new int[0x103];
    static final int[] KIND = new int[0x103];
    static final String[] NAME = new String[0x100];

    private static final String TABLE =
        // 0x00
        "BRK brk ORA izx JAM jam SLO izx NOP zp  ORA zp  ASL zp  SLO zp  "
      + "PHP psh ORA imm ASL acc ANC imm NOP abs ORA abs ASL abs SLO abs "
        // 0x10
      + "BPL rel ORA izy JAM jam SLO izy NOP zpx ORA zpx ASL zpx SLO zpx "
      + "CLC imp ORA aby NOP imp SLO aby NOP abx ORA abx ASL abx SLO abx "
        // 0x20
      + "JSR jsr AND izx JAM jam RLA izx BIT zp  AND zp  ROL zp  RLA zp  "
      + "PLP pul AND imm ROL acc ANC imm BIT abs AND abs ROL abs RLA abs "
        // 0x30
      + "BMI rel AND izy JAM jam RLA izy NOP zpx AND zpx ROL zpx RLA zpx "
      + "SEC imp AND aby NOP imp RLA aby NOP abx AND abx ROL abx RLA abx "
        // 0x40
      + "RTI rti EOR izx JAM jam SRE izx NOP zp  EOR zp  LSR zp  SRE zp  "
      + "PHA psh EOR imm LSR acc ALR imm JMP jmp EOR abs LSR abs SRE abs "
        // 0x50
      + "BVC rel EOR izy JAM jam SRE izy NOP zpx EOR zpx LSR zpx SRE zpx "
      + "CLI imp EOR aby NOP imp SRE aby NOP abx EOR abx LSR abx SRE abx "
        // 0x60
      + "RTS rts ADC izx JAM jam RRA izx NOP zp  ADC zp  ROR zp  RRA zp  "
      + "PLA pul ADC imm ROR acc ARR imm JMP jmi ADC abs ROR abs RRA abs "
        // 0x70
      + "BVS rel ADC izy JAM jam RRA izy NOP zpx ADC zpx ROR zpx RRA zpx "
      + "SEI imp ADC aby NOP imp RRA aby NOP abx ADC abx ROR abx RRA abx "
        // 0x80
      + "NOP imm STA izx NOP imm SAX izx STY zp  STA zp  STX zp  SAX zp  "
      + "DEY imp NOP imm TXA imp ANE imm STY abs STA abs STX abs SAX abs "
        // 0x90
      + "BCC rel STA izy JAM jam SHA izy STY zpx STA zpx STX zpy SAX zpy "
      + "TYA imp STA aby TXS imp TAS aby SHY abx STA abx SHX aby SHA aby "
        // 0xA0
      + "LDY imm LDA izx LDX imm LAX izx LDY zp  LDA zp  LDX zp  LAX zp  "
      + "TAY imp LDA imm TAX imp LXA imm LDY abs LDA abs LDX abs LAX abs "
        // 0xB0
      + "BCS rel LDA izy JAM jam LAX izy LDY zpx LDA zpx LDX zpy LAX zpy "
      + "CLV imp LDA aby TSX imp LAS aby LDY abx LDA abx LDX aby LAX aby "
        // 0xC0
      + "CPY imm CMP izx NOP imm DCP izx CPY zp  CMP zp  DEC zp  DCP zp  "
      + "INY imp CMP imm DEX imp AXS imm CPY abs CMP abs DEC abs DCP abs "
        // 0xD0
      + "BNE rel CMP izy JAM jam DCP izy NOP zpx CMP zpx DEC zpx DCP zpx "
      + "CLD imp CMP aby NOP imp DCP aby NOP abx CMP abx DEC abx DCP abx "
        // 0xE0
      + "CPX imm SBC izx NOP imm ISC izx CPX zp  SBC zp  INC zp  ISC zp  "
      + "INX imp SBC imm NOP imp SBC imm CPX abs SBC abs INC abs ISC abs "
        // 0xF0
      + "BEQ rel SBC izy JAM jam ISC izy NOP zpx SBC zpx INC zpx ISC zpx "
      + "SED imp SBC aby NOP imp ISC aby NOP abx SBC abx INC abx ISC abx ";

    static {
        String[] ops = {"NOP", "LDA", "LDX", "LDY", "EOR", "AND", "ORA", "ADC", "SBC", "CMP", "CPX",
            "CPY", "BIT", "LAX", "ANC", "ALR", "ARR", "AXS", "LAS", "ANE", "LXA", "STA", "STX", "STY",
            "SAX", "SHA", "SHX", "SHY", "TAS", "ASL", "LSR", "ROL", "ROR", "INC", "DEC", "SLO", "SRE",
            "RLA", "RRA", "ISC", "DCP", "CLC", "SEC", "CLI", "SEI", "CLV", "CLD", "SED", "TAX", "TXA",
            "TAY", "TYA", "TSX", "TXS", "INX", "INY", "DEX", "DEY", "BRANCH", "PHA", "PHP", "PLA",
            "PLP"};
        String[] modes = {"jam", "brk", "jmi", "rti", "jmp", "pul", "psh", "rts", "jsr", "izx", "izy",
            "zpy", "zpx", "aby", "abx", "abs", "rel", "zp", "imm", "imp"}; // by number
        String[] words = TABLE.trim().split("\\s+");
        if (words.length != 512) {
            throw new AssertionError("opcode table has " + words.length / 2 + " entries");
        }
        for (int i = 0; i < 256; i++) {
            String name = words[2 * i];
            String mode = words[2 * i + 1];
            NAME[i] = name;
            MODE[i] = mode.equals("acc") ? IMP : indexOf(modes, mode);
            int op = name.charAt(0) == 'B' && mode.equals("rel") ? BRANCH : indexOf(ops, name);
            OP[i] = op < 0 ? OTHER : op;
            KIND[i] = OP[i] >= STA && OP[i] <= TAS ? WRITE : OP[i] >= ASL && OP[i] <= DCP ? RMW : READ;
        }
        MODE[OP_INT] = BRK;
        MODE[OP_RESET] = BRK;
    }

    private static int indexOf(String[] a, String s) {
        for (int i = 0; i < a.length; i++) {
            if (a[i].equals(s)) {
                return i;
            }
        }
        return -1;
    }

    private Opcodes() {
    }
}
