%struct.S = type { i32, float }

@lds = external addrspace(3) global [4 x float], align 4
@table = internal constant [4 x float] [float 1.000000e+00, float 2.000000e+00, float 5.000000e-01, float 3.000000e+00], align 4
@str = private unnamed_addr constant [6 x i8] c"hello\00", align 1
@s = global %struct.S zeroinitializer, align 4

; Function Attrs: nounwind readnone
declare void @use(metadata) #0

; Function Attrs: nounwind
define void @main() #1 !llvm.loop !3 {
  %1 = load float, float* getelementptr inbounds ([4 x float], [4 x float]* @table, i32 0, i32 2), align 4
  %2 = fadd fast float %1, 1.000000e+00, !dx.precise !1
  call void @use(metadata float %2)
  store float %2, float* getelementptr inbounds ([4 x float], [4 x float]* @table, i32 0, i32 2), align 4
  ret void
}

attributes #0 = { nounwind readnone }
attributes #1 = { nounwind "fp32-denorm-mode"="ftz" }

!dx.entryPoints = !{!0}
!llvm.ident = !{!1, !2}

!0 = !{void ()* @main, !1}
!1 = !{!"hello md", i32 2, null}
!2 = !{<2 x half> <half 0xH3C00, half 0xH4000>, half 0xH3C00, double 1.500000e+00, i128 18446744073709551621, %struct.S* @s, [6 x i8]* @str, [4 x float] addrspace(3)* @lds}
!3 = distinct !{!3}
