; lockstep-nes demo ROM: an original NROM-128 program for the project's own assembler
; (lockstep.nes.core.demo.Assembler). DemoRom puts the tile numbers (TILE_*) and the note
; numbers (C3 = 1 .. B6 = 48) in front of this file, and the generated tables (sine, note_lo,
; note_hi) at its "@generated-tables" line.
;
; Start-up: wait two vblanks, clear RAM, load the palette, draw the nametable, enable NMI.
; Everything after that runs in the NMI handler, once per frame:
;   OAM DMA, backdrop colour, frame counter digits, scroll (all in vblank), then
;   controller -> player -> balls -> sound -> the next frame's OAM page.

; ---- hardware registers ----
PPUCTRL   = $2000
PPUMASK   = $2001
PPUSTATUS = $2002
OAMADDR   = $2003
PPUSCROLL = $2005
PPUADDR   = $2006
PPUDATA   = $2007
SQ1_VOL   = $4000
SQ1_SWEEP = $4001
SQ1_LO    = $4002
SQ1_HI    = $4003
SQ2_VOL   = $4004
SQ2_SWEEP = $4005
SQ2_LO    = $4006
SQ2_HI    = $4007
TRI_LINEAR = $4008
TRI_LO    = $400A
TRI_HI    = $400B
NOISE_VOL = $400C
NOISE_LO  = $400E
NOISE_HI  = $400F
DMC_FREQ  = $4010
OAMDMA    = $4014
SND_CHN   = $4015
JOY1      = $4016
APU_FRAME = $4017

; PPUCTRL: NMI on, sprites and background from pattern table 0, nametable $2000.
CTRL_VALUE = %10000000
; PPUMASK: show background and sprites, also in the leftmost 8 pixels.
MASK_VALUE = %00011110

; Controller bits as read_pad leaves them (A is read first and ends up in bit 7).
BTN_A     = %10000000
BTN_B     = %01000000
BTN_UP    = %00001000
BTN_DOWN  = %00000100
BTN_LEFT  = %00000010
BTN_RIGHT = %00000001

NBALLS    = 8
; The playfield inside the border, in sprite coordinates.
BALL_XMIN = 8
BALL_XMAX = 240
BALL_YMIN = 8
BALL_YMAX = 216
PLAYER_XMIN = 8
PLAYER_XMAX = 232
PLAYER_YMIN = 8
PLAYER_YMAX = 208
NOTE_FRAMES = 8          ; frames per melody step
NSTARS    = 4            ; stars circling the player
COUNTER_ADDR = $2351     ; nametable address of the frame counter's 4 hex digits (row 26)

; ---- zero-page variables (cleared at start-up) ----
.org $0000
frame:      .res 1       ; frame counter, +1 per NMI
frame_hi:   .res 1
buttons:    .res 1       ; controller 1 now
prev:       .res 1       ; controller 1 last frame
pressed:    .res 1       ; buttons that went down this frame
player_x:   .res 1
player_y:   .res 1
player_pal: .res 1       ; sprite palette of the player (A cycles it)
backdrop:   .res 1       ; index into backdrop_colors (B cycles it)
note_index: .res 1       ; melody step 0-31
note_timer: .res 1       ; frames left in this step
row:        .res 1       ; scratch for draw_background
col:        .res 1
ptr:        .res 2       ; scratch: a PPU address (low, high)
width:      .res 1
height:     .res 1
star:       .res 1       ; scratch: star index in build_oam
ball_x:     .res NBALLS
ball_y:     .res NBALLS
ball_dx:    .res NBALLS  ; signed pixels per frame
ball_dy:    .res NBALLS

oam = $0200              ; the sprite page copied by OAM DMA

; ---- program: NROM-128, mirrored at $8000 and $C000 ----
.org $C000

reset:
        sei                     ; no IRQs
        cld                     ; (the 2A03 has no decimal mode; harmless)
        ldx #$40
        stx APU_FRAME           ; APU frame IRQ off
        ldx #$FF
        txs                     ; stack at $01FF
        inx                     ; X = 0
        stx PPUCTRL             ; NMI off
        stx PPUMASK             ; rendering off
        stx DMC_FREQ            ; DMC IRQ off
        bit PPUSTATUS           ; clear a stale vblank flag

vblank1:                        ; first vblank: the PPU is warming up
        bit PPUSTATUS
        bpl vblank1

        lda #0                  ; clear the 2 KiB of RAM
clear_ram:
        sta $0000,x
        sta $0100,x
        sta $0300,x
        sta $0400,x
        sta $0500,x
        sta $0600,x
        sta $0700,x
        inx
        bne clear_ram
        lda #$FF                ; the OAM page: every sprite below the screen
hide_sprites:
        sta oam,x
        inx
        bne hide_sprites

vblank2:                        ; second vblank: the PPU is ready
        bit PPUSTATUS
        bpl vblank2

        jsr load_palette
        jsr draw_background

        ldx #0                  ; the balls' start positions and speeds
init_balls:
        lda ball_init,x
        sta ball_x,x
        inx
        cpx #NBALLS*4
        bne init_balls
        lda #120
        sta player_x
        lda #160
        sta player_y
        lda #1
        sta note_timer          ; first note on the first frame

        lda #%00001111          ; enable pulse 1, pulse 2, triangle and noise
        sta SND_CHN
        lda #$08                ; sweep off (negate set so low notes are not muted)
        sta SQ1_SWEEP
        sta SQ2_SWEEP

        lda #CTRL_VALUE         ; NMI on: from now on everything happens in nmi
        sta PPUCTRL
forever:
        jmp forever

; ---- NMI: one frame ----
nmi:
        pha
        txa
        pha
        tya
        pha

        lda #0                  ; sprites: copy the OAM page prepared last frame
        sta OAMADDR
        lda #>oam
        sta OAMDMA

        bit PPUSTATUS           ; backdrop colour ($3F00)
        lda #$3F
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldx backdrop
        lda backdrop_colors,x
        sta PPUDATA

        lda #>COUNTER_ADDR      ; the frame counter on screen, 4 hex digits
        sta PPUADDR
        lda #<COUNTER_ADDR
        sta PPUADDR
        lda frame_hi
        jsr put_hex_byte
        lda frame
        jsr put_hex_byte

        lda #0                  ; scroll 0,0 (after the PPUADDR writes)
        sta PPUSCROLL
        sta PPUSCROLL
        lda #CTRL_VALUE
        sta PPUCTRL
        lda #MASK_VALUE         ; rendering on (first frame) / stays on
        sta PPUMASK

        jsr read_pad
        jsr move_player
        jsr move_balls
        jsr play_sound
        jsr build_oam

        inc frame
        bne nmi_done
        inc frame_hi
nmi_done:
        pla
        tay
        pla
        tax
        pla
irq:
        rti

; Writes A as two hex digits to PPUDATA (font tiles are ASCII codes).
put_hex_byte:
        pha
        lsr a
        lsr a
        lsr a
        lsr a
        jsr put_hex_digit
        pla
        and #$0F
put_hex_digit:                  ; A = 0-15
        cmp #10
        bcc hex_digit
        adc #'A'-'0'-10-1       ; carry is set here: 10-15 -> 'A'-'F' below
hex_digit:
        adc #'0'                ; carry is clear here
        sta PPUDATA
        rts

; ---- controller 1: strobe, then 8 serial reads into buttons ----
read_pad:
        lda buttons
        sta prev
        lda #1
        sta JOY1                ; strobe on: latch the buttons
        sta buttons             ; a 1 that reaches the carry after 8 shifts ends the loop
        lsr a
        sta JOY1                ; strobe off
read_bit:
        lda JOY1
        lsr a                   ; bit 0 -> carry
        rol buttons             ; carry -> buttons, the marker bit -> carry
        bcc read_bit
        lda prev                ; pressed = buttons and not prev
        eor #$FF
        and buttons
        sta pressed
        rts

; ---- the player: d-pad moves 2 pixels per frame; A changes colour, B the backdrop ----
move_player:
        lda buttons
        and #BTN_RIGHT
        beq no_right
        lda player_x
        cmp #PLAYER_XMAX
        bcs no_right
        adc #2                  ; carry is clear here
        sta player_x
no_right:
        lda buttons
        and #BTN_LEFT
        beq no_left
        lda player_x
        cmp #PLAYER_XMIN+1
        bcc no_left
        sbc #2                  ; carry is set here
        sta player_x
no_left:
        lda buttons
        and #BTN_DOWN
        beq no_down
        lda player_y
        cmp #PLAYER_YMAX
        bcs no_down
        adc #2
        sta player_y
no_down:
        lda buttons
        and #BTN_UP
        beq no_up
        lda player_y
        cmp #PLAYER_YMIN+1
        bcc no_up
        sbc #2
        sta player_y
no_up:
        lda pressed
        and #BTN_A
        beq no_a
        inc player_pal          ; next sprite palette
        lda player_pal
        and #3
        sta player_pal
        lda #C6                 ; a high blip on pulse 2
        jsr blip
no_a:
        lda pressed
        and #BTN_B
        beq no_b
        inc backdrop            ; next backdrop colour
        lda backdrop
        and #3
        sta backdrop
        lda #G5                 ; a lower blip
        jsr blip
no_b:
        rts

; A short decaying note on pulse 2; A = note number.
blip:
        tax
        lda #%10000001          ; duty 50%, envelope decay, fast
        sta SQ2_VOL
        lda note_lo,x
        sta SQ2_LO
        lda note_hi,x
        ora #%00001000          ; length counter load (long; the envelope ends the note)
        sta SQ2_HI
        rts

; ---- the balls: move, bounce off the inside of the border ----
move_balls:
        ldx #NBALLS-1
ball_loop:
        lda ball_x,x            ; x += dx
        clc
        adc ball_dx,x
        sta ball_x,x
        cmp #BALL_XMIN          ; left of the field, or
        bcc bounce_x
        cmp #BALL_XMAX          ; right of it: reverse dx
        bcc x_ok
bounce_x:
        lda #0
        sec
        sbc ball_dx,x
        sta ball_dx,x
x_ok:
        lda ball_y,x            ; y += dy
        clc
        adc ball_dy,x
        sta ball_y,x
        cmp #BALL_YMIN
        bcc bounce_y
        cmp #BALL_YMAX
        bcc y_ok
bounce_y:
        lda #0
        sec
        sbc ball_dy,x
        sta ball_dy,x
y_ok:
        dex
        bpl ball_loop
        rts

; ---- sound: a 32-step melody on pulse 1 and a bass line on the triangle ----
play_sound:
        dec note_timer
        bne sound_done
        lda #NOTE_FRAMES
        sta note_timer
        ldx note_index
        lda melody,x
        beq melody_rest         ; 0 = rest: let the last note decay
        tax
        lda #%01000010          ; duty 25%, envelope decay
        sta SQ1_VOL
        lda note_lo,x
        sta SQ1_LO
        lda note_hi,x
        ora #%00001000
        sta SQ1_HI
melody_rest:
        lda note_index          ; a bass note every 8 steps
        and #7
        bne next_step
        lda note_index
        lsr a
        lsr a
        lsr a
        tax
        lda bass,x
        tax
        lda #%01100000          ; linear counter: 96 quarter frames, then silence
        sta TRI_LINEAR
        lda note_lo,x
        sta TRI_LO
        lda note_hi,x
        ora #%00001000
        sta TRI_HI
next_step:
        lda note_index          ; a hi-hat tick on the odd steps (noise channel)
        and #1
        beq no_hat
        lda #%00010100          ; constant volume 4
        sta NOISE_VOL
        lda #$03                ; a high noise pitch
        sta NOISE_LO
        lda #%00011000          ; length counter 2 half frames: a short tick
        sta NOISE_HI
no_hat:
        lda note_index
        clc
        adc #1
        and #31
        sta note_index
sound_done:
        rts

; ---- OAM: the player's 16x16 robot (4 sprites), then the balls ----
build_oam:
        lda player_y            ; Y of the top and bottom rows
        sta oam+0
        sta oam+4
        clc
        adc #8
        sta oam+8
        sta oam+12
        lda #TILE_ROBOT         ; tiles
        sta oam+1
        lda #TILE_ROBOT+1
        sta oam+5
        lda #TILE_ROBOT+2
        sta oam+9
        lda #TILE_ROBOT+3
        sta oam+13
        lda player_pal          ; attributes: palette only
        sta oam+2
        sta oam+6
        sta oam+10
        sta oam+14
        lda player_x            ; X of the left and right columns
        sta oam+3
        sta oam+11
        clc
        adc #8
        sta oam+7
        sta oam+15

        ldx #0                  ; ball index
        ldy #16                 ; OAM offset
oam_ball:
        lda ball_y,x
        sta oam,y
        lda #TILE_BALL
        sta oam+1,y
        txa                     ; palette = index mod 4, behind the background
        and #3                  ; (the balls pass behind the letters)
        ora #%00100000
        sta oam+2,y
        lda ball_x,x
        sta oam+3,y
        iny
        iny
        iny
        iny
        inx
        cpx #NBALLS
        bne oam_ball

        lda #0                  ; stars circling the robot's centre, radius 12:
        sta star                ; star k at angle frame + 16k (of 64)
orbit_loop:
        lda star
        asl a
        asl a
        asl a
        asl a                   ; 16k (carry clear: k < 4)
        adc frame
        and #63
        tax
        lda player_x            ; x = player_x + 4 + sin(angle)
        clc
        adc #4                  ; (no carry out: player_x <= PLAYER_XMAX)
        adc sine,x
        sta oam+3,y
        txa                     ; y = player_y + 4 + cos(angle), cos = sin(angle + 16)
        clc
        adc #16
        and #63
        tax
        lda player_y
        clc
        adc #4
        adc sine,x
        sta oam,y
        lda #TILE_STAR
        sta oam+1,y
        lda #3                  ; palette 3
        sta oam+2,y
        iny
        iny
        iny
        iny
        inc star
        lda star
        cmp #NSTARS
        bne orbit_loop
        rts

; ---- start-up drawing (rendering is off) ----
load_palette:
        bit PPUSTATUS
        lda #$3F
        sta PPUADDR
        lda #$00
        sta PPUADDR
        ldx #0
palette_loop:
        lda palette,x
        sta PPUDATA
        inx
        cpx #32
        bne palette_loop
        rts

; The nametable at $2000: border blocks around a dotted field, the attribute table, the
; double-size title, then the small text lines.
draw_background:
        bit PPUSTATUS
        lda #$20
        sta PPUADDR
        lda #$00
        sta PPUADDR
        lda #0
        sta row
bg_row:
        lda #0
        sta col
bg_col:
        lda row                 ; border on row 0, row 29, column 0 and column 31
        beq bg_border
        cmp #29
        beq bg_border
        lda col
        beq bg_border
        cmp #31
        beq bg_border
        lda #TILE_FIELD
        bne bg_put              ; (always)
bg_border:
        lda #TILE_BORDER
bg_put:
        sta PPUDATA
        inc col
        lda col
        cmp #32
        bne bg_col
        inc row
        lda row
        cmp #30
        bne bg_row

        ldx #0                  ; PPUADDR is now $23C0: the attribute table
attr_loop:
        lda attributes,x
        sta PPUDATA
        inx
        cpx #64
        bne attr_loop

        jsr clear_boxes

        ; The title at double size: row 4 holds the glyphs' top halves, row 5 the bottoms.
        lda #$20
        sta PPUADDR
        lda #$84                ; row 4, column 4
        sta PPUADDR
        ldy #0                  ; 0 = top halves
        jsr title_row
        lda #$20
        sta PPUADDR
        lda #$A4                ; row 5, column 4
        sta PPUADDR
        ldy #2                  ; 2 = bottom halves
        jsr title_row

        ldx #0                  ; small text: records of PPU address (hi, lo), text, 0
text_record:
        lda texts,x
        beq text_done           ; a 0 high byte ends the list
        sta PPUADDR
        inx
        lda texts,x
        sta PPUADDR
        inx
text_char:
        lda texts,x
        inx
        cmp #0
        beq text_record
        sta PPUDATA
        jmp text_char
text_done:
        rts

; Blank rectangles behind the texts: there the field's dots would show in the text palettes.
; Records of PPU address (high, low), width, height; a 0 high byte ends the list.
clear_boxes:
        ldx #0
box_record:
        lda boxes,x
        beq boxes_done
        sta ptr+1
        lda boxes+1,x
        sta ptr
        lda boxes+2,x
        sta width
        lda boxes+3,x
        sta height
box_row:
        lda ptr+1               ; start of this row of the box
        sta PPUADDR
        lda ptr
        sta PPUADDR
        ldy width
        lda #0
box_tile:
        sta PPUDATA
        dey
        bne box_tile
        lda ptr                 ; next row: +32
        clc
        adc #32
        sta ptr
        bcc box_same_page
        inc ptr+1
box_same_page:
        dec height
        bne box_row
        txa                     ; next record
        clc
        adc #4
        tax
        jmp box_record
boxes_done:
        rts

; Writes one tile row of the title; Y = 0 for the top halves, 2 for the bottom halves.
; Letter c uses tiles TILE_BIG + 4*(c-'A') + Y (left) and + Y + 1 (right).
title_row:
        ldx #0
title_char:
        lda title,x
        beq title_end
        cmp #' '
        bne title_letter
        lda #0                  ; a space: two blank tiles
        sta PPUDATA
        sta PPUDATA
        jmp title_next
title_letter:
        sec
        sbc #'A'
        asl a
        asl a
        clc
        adc #TILE_BIG
        sty col                 ; + Y
        adc col
        sta PPUDATA
        clc
        adc #1
        sta PPUDATA
title_next:
        inx
        bne title_char
title_end:
        rts

; ---- data ----
title:
        .byte "LOCKSTEP NES", 0

boxes:                          ; PPU address (high, low), width, height
        .byte >$2084, <$2084, 24, 4     ; rows 4-7, columns 4-27: title and subtitle
        .byte >$22C2, <$22C2, 28, 6     ; rows 22-27, columns 2-29: help and counter
        .byte 0

texts:                          ; PPU address (high, low), text, 0
        .byte >$20E5, <$20E5, "CYCLE ACCURATE EMULATOR", 0      ; row 7
        .byte >$22C5, <$22C5, "D-PAD  MOVE THE ROBOT", 0        ; row 22
        .byte >$2304, <$2304, "A  COLOR     B  BACKDROP", 0     ; row 24
        .byte >$234B, <$234B, "FRAME 0000", 0                   ; row 26 (NMI updates it)
        .byte 0

; Attribute table: one byte per 32x32 pixels, 2 bits per 16x16 quarter
; (bits 1-0 top left, 3-2 top right, 5-4 bottom left, 7-6 bottom right).
; Palette 0 border and field, 1 title (rows 4-5), 2 subtitle (row 7), 3 help text (rows 22-27);
; the outer quarters keep palette 0 so the border keeps its colour.
attributes:
        .byte $00, $00, $00, $00, $00, $00, $00, $00    ; rows 0-3
        .byte $00, $A5, $A5, $A5, $A5, $A5, $A5, $00    ; rows 4-7
        .byte $00, $00, $00, $00, $00, $00, $00, $00    ; rows 8-11
        .byte $00, $00, $00, $00, $00, $00, $00, $00    ; rows 12-15
        .byte $00, $00, $00, $00, $00, $00, $00, $00    ; rows 16-19
        .byte $C0, $F0, $F0, $F0, $F0, $F0, $F0, $30    ; rows 20-23
        .byte $CC, $FF, $FF, $FF, $FF, $FF, $FF, $33    ; rows 24-27
        .byte $00, $00, $00, $00, $00, $00, $00, $00    ; rows 28-29

palette:
        .byte $0F, $11, $01, $21        ; background 0: border blocks, field dots
        .byte $0F, $27, $06, $38        ; background 1: title (yellow to orange, red shadow)
        .byte $0F, $30, $00, $10        ; background 2: subtitle (white, grey shadow)
        .byte $0F, $2A, $0A, $3A        ; background 3: help text (green)
        .byte $0F, $16, $06, $30        ; sprites 0: red (base, dark, highlight)
        .byte $0F, $2A, $0A, $30        ; sprites 1: green
        .byte $0F, $21, $01, $30        ; sprites 2: blue
        .byte $0F, $28, $17, $30        ; sprites 3: yellow

backdrop_colors:
        .byte $0F, $02, $0C, $07        ; black, indigo, teal, brown

ball_init:
        .byte 20, 60, 100, 140, 180, 220, 40, 200               ; x
        .byte 30, 90, 150, 60, 120, 180, 200, 40                ; y
        .byte 1, -1, 2, -2, 1, -1, 3, -3                        ; dx
        .byte 1, 2, -1, -2, 2, -1, 1, -2                        ; dy

melody:                         ; 32 steps of NOTE_FRAMES frames; 0 = rest
        .byte C4, E4, G4, C5, G4, E4, C4, 0
        .byte D4, F4, A4, D5, A4, F4, D4, 0
        .byte E4, G4, B4, E5, D5, B4, G4, 0
        .byte C5, G4, E4, G4, C5, 0, C5, 0
bass:                           ; one note per 8 steps (the triangle sounds an octave lower)
        .byte C4, D4, E4, C4

; sine: 64 steps of a full turn, amplitude 12 (signed), generated by DemoRom.
; note_lo / note_hi: the timer period of each note number (C3 = 1 .. B6 = 48), computed by
; DemoRom from the note frequencies and inserted here.
; @generated-tables

; ---- interrupt vectors ----
.org $FFFA
        .word nmi, reset, irq
