// One trampoline per function of render_stack_functions.h, so that the binary needs none of the
// render stack's libraries to start: each jumps through its slot, and a slot starts at a resolver
// that loads the libraries (render_stack.c) and then jumps to the real function with the caller's
// arguments intact. x86-64 System V only; elsewhere the libraries are linked as usual.
#if defined(__x86_64__) && defined(__linux__)

        .pushsection .data.cardbake_render_stack, "aw"
        .balign 8
        .globl cardbake_render_stack_slots
        .hidden cardbake_render_stack_slots
cardbake_render_stack_slots:
        .popsection

        .text
        .set slot_index, 0

// The trampoline `name` and its resolver entry; the slot holds the entry until the libraries load.
#define RENDER_STACK_FUNCTION(name) \
        .globl name; .hidden name; .type name, @function; \
name:   jmp *cardbake_render_stack_slots + 8 * slot_index(%rip); \
resolve_##name: \
        movq $slot_index, %r11; jmp resolve_slot; \
        .pushsection .data.cardbake_render_stack, "aw"; .quad resolve_##name; .popsection; \
        .set slot_index, slot_index + 1;

#include "render_stack_functions.h"

// Loads the libraries once, then jumps through slot %r11. Saves the registers that may carry
// arguments (%rax counts the vector registers of a variadic call) and keeps the stack 16-aligned
// for the call: on entry %rsp is 8 past a multiple of 16, 8 pushes keep it so, and 136 more align it.
resolve_slot:
        push %rdi; push %rsi; push %rdx; push %rcx; push %r8; push %r9; push %rax; push %r11
        sub $136, %rsp
        movdqu %xmm0, 0(%rsp); movdqu %xmm1, 16(%rsp); movdqu %xmm2, 32(%rsp); movdqu %xmm3, 48(%rsp)
        movdqu %xmm4, 64(%rsp); movdqu %xmm5, 80(%rsp); movdqu %xmm6, 96(%rsp); movdqu %xmm7, 112(%rsp)
        call cardbake_render_stack_load_or_exit
        movdqu 0(%rsp), %xmm0; movdqu 16(%rsp), %xmm1; movdqu 32(%rsp), %xmm2; movdqu 48(%rsp), %xmm3
        movdqu 64(%rsp), %xmm4; movdqu 80(%rsp), %xmm5; movdqu 96(%rsp), %xmm6; movdqu 112(%rsp), %xmm7
        add $136, %rsp
        pop %r11; pop %rax; pop %r9; pop %r8; pop %rcx; pop %rdx; pop %rsi; pop %rdi
        leaq cardbake_render_stack_slots(%rip), %r10
        jmp *(%r10, %r11, 8)

#endif

        .section .note.GNU-stack, "", %progbits
