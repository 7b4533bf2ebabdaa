module geometry
  implicit none
contains
  !> Area of a circle of radius r.
  real function circle_area(r)
    real, intent(in) :: r
    circle_area = 3.14159 * r * r
  end function circle_area
end module geometry

program main
  use geometry
  implicit none
  real :: area
  ! The deliberate finding: the same variable declared twice.
  real :: area
  area = circle_area(2.0)
  print *, area
end program main
